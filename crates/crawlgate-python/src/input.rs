//! Python arguments as the core wants them, or a Python exception that says
//! what was expected.

use crawlgate::Profile;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

/// The bytes of a robots.txt body given as `bytes`, `bytearray` or `str`.
///
/// A `str` is encoded as UTF-8 with `surrogateescape`, so text decoded from
/// bytes with that handler gives back exactly those bytes.
pub fn body_bytes<'py>(body: &Bound<'py, PyAny>, what: &str) -> PyResult<Bound<'py, PyBytes>> {
    if let Ok(bytes) = body.cast::<PyBytes>() {
        return Ok(bytes.clone());
    }
    if let Ok(array) = body.cast::<PyByteArray>() {
        return Ok(PyBytes::new(body.py(), &array.to_vec()));
    }
    if let Ok(text) = body.cast::<PyString>() {
        // The C-level encoder first: it costs a fraction of a method call,
        // which matters for the small files most sites serve. Only text
        // holding lone surrogates needs the `surrogateescape` handler.
        if let Ok(encoded) = text.encode_utf8() {
            return Ok(encoded);
        }
        let encoded = text
            .call_method1("encode", ("utf-8", "surrogateescape"))
            .map_err(|err| {
                PyValueError::new_err(format!(
                    "{what}: the text cannot be encoded as UTF-8 ({}); pass the bytes as served instead",
                    err.value(body.py())
                ))
            })?;
        return Ok(encoded.cast_into::<PyBytes>()?);
    }
    Err(PyTypeError::new_err(format!(
        "{what} must be bytes or str, not {}",
        type_name(body)
    )))
}

/// A URL or user agent given as `str` or UTF-8 `bytes` (Scrapy passes
/// both).
pub fn text_arg(value: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(text.to_cow()?.into_owned());
    }
    if let Ok(bytes) = value.cast::<PyBytes>() {
        return std::str::from_utf8(bytes.as_bytes())
            .map(str::to_owned)
            .map_err(|err| PyValueError::new_err(format!("{what} is not valid UTF-8: {err}")));
    }
    Err(PyTypeError::new_err(format!(
        "{what} must be str or bytes, not {}",
        type_name(value)
    )))
}

/// A list of URLs from any iterable of `str`/`bytes`.
pub fn text_list(values: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<String>> {
    if values.is_instance_of::<PyString>() || values.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an iterable of URLs, not a single {}",
            type_name(values)
        )));
    }
    let iter = values.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} must be an iterable of URLs, not {}",
            type_name(values)
        ))
    })?;
    let mut out = Vec::with_capacity(values.len().unwrap_or(0));
    for (index, item) in iter.enumerate() {
        out.push(text_arg(&item?, &format!("{what}[{index}]"))?);
    }
    Ok(out)
}

/// A profile by name: one of [`profile_names`] (or `rfc` for `rfc9309`).
pub fn profile_named(name: &str) -> PyResult<Profile> {
    name.parse::<Profile>()
        .map_err(|err| PyValueError::new_err(err.to_string()))
}

/// The names of the readings, default first: `crawlgate_robots.PROFILES`.
pub fn profile_names() -> Vec<&'static str> {
    Profile::ALL.iter().map(|profile| profile.name).collect()
}

/// The Python type name of a value, for error messages.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|name| name.to_string())
        .unwrap_or_else(|_| "an unknown type".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of a `NAME = Literal["a", "b"]` line of the type stubs.
    fn stub_literal(name: &str) -> Vec<String> {
        let stub = include_str!("../python/crawlgate_robots/_crawlgate.pyi");
        let prefix = format!("{name} = Literal[");
        let line = stub
            .lines()
            .find_map(|line| line.strip_prefix(&prefix))
            .unwrap_or_else(|| panic!("the stub has no `{prefix}...]` line"));
        let inner = line.strip_suffix(']').expect("a one-line Literal");
        inner
            .split(',')
            .map(|item| item.trim().trim_matches('"').to_owned())
            .collect()
    }

    #[test]
    fn the_stubs_name_every_profile() {
        let names: Vec<String> = profile_names().into_iter().map(str::to_owned).collect();
        // Adding a profile without naming it in the stub fails here.
        assert_eq!(stub_literal("_ProfileName"), names);
        let accepted = stub_literal("_Profile");
        for name in &names {
            assert!(accepted.contains(name), "`_Profile` lacks {name}");
        }
        for name in &accepted {
            assert!(
                Profile::named(name).is_some(),
                "the stub accepts `{name}`, the core does not"
            );
        }
        assert_eq!(
            accepted
                .iter()
                .filter(|n| !names.contains(n))
                .collect::<Vec<_>>(),
            ["rfc"],
            "aliases in the stub"
        );
    }
}
