//! A column of log records read as text: the values Arrow's cast to
//! `Utf8` (arrow-cast) gives for every type a log table holds (text of any
//! width, binary, dictionaries of them, integers, floats, booleans,
//! nulls), without building arrow-cast and the kernels under it (minutes
//! of the Python wheel's build). Binary that is no UTF-8 is null, as the
//! cast makes it; a float is written as the cast writes it (through
//! `ryu`, the shortest digits that read back the same). Other types
//! (dates, decimals, lists ...) are errors.

use std::fmt::Write as _;

use arrow_array::builder::StringBuilder;
use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowDictionaryKeyType, Float16Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type,
    Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrowPrimitiveType, StringArray};
use arrow_schema::DataType;

/// The most bytes of text one column holds (Arrow's 32-bit offsets).
const MAX_BYTES: usize = i32::MAX as usize;

/// `array`'s values as text (see the [module](self)); why not when its
/// type has none, or its texts exceed 2 GiB.
pub(crate) fn text(array: &dyn Array) -> Result<StringArray, String> {
    let len = array.len();
    match array.data_type() {
        DataType::Utf8 => Ok(array.as_string::<i32>().clone()),
        DataType::LargeUtf8 => collect(len, array.as_string::<i64>().iter()),
        DataType::Utf8View => collect(len, array.as_string_view().iter()),
        DataType::Binary => collect(len, array.as_binary::<i32>().iter().map(utf8)),
        DataType::LargeBinary => collect(len, array.as_binary::<i64>().iter().map(utf8)),
        DataType::BinaryView => collect(len, array.as_binary_view().iter().map(utf8)),
        DataType::Null => Ok(StringArray::new_null(len)),
        DataType::Boolean => collect(
            len,
            array
                .as_boolean()
                .iter()
                .map(|b| b.map(|b| if b { "true" } else { "false" })),
        ),
        DataType::Int8 => numbers::<Int8Type>(array, |n, s| write!(s, "{n}")),
        DataType::Int16 => numbers::<Int16Type>(array, |n, s| write!(s, "{n}")),
        DataType::Int32 => numbers::<Int32Type>(array, |n, s| write!(s, "{n}")),
        DataType::Int64 => numbers::<Int64Type>(array, |n, s| write!(s, "{n}")),
        DataType::UInt8 => numbers::<UInt8Type>(array, |n, s| write!(s, "{n}")),
        DataType::UInt16 => numbers::<UInt16Type>(array, |n, s| write!(s, "{n}")),
        DataType::UInt32 => numbers::<UInt32Type>(array, |n, s| write!(s, "{n}")),
        DataType::UInt64 => numbers::<UInt64Type>(array, |n, s| write!(s, "{n}")),
        // The cast writes half floats with `Display`, the others with ryu.
        DataType::Float16 => numbers::<Float16Type>(array, |n, s| write!(s, "{n}")),
        DataType::Float32 => numbers::<Float32Type>(array, |n, s| {
            s.push_str(ryu::Buffer::new().format(n));
            Ok(())
        }),
        DataType::Float64 => numbers::<Float64Type>(array, |n, s| {
            s.push_str(ryu::Buffer::new().format(n));
            Ok(())
        }),
        DataType::Dictionary(key, _) => match key.as_ref() {
            DataType::Int8 => dictionary::<Int8Type>(array),
            DataType::Int16 => dictionary::<Int16Type>(array),
            DataType::Int32 => dictionary::<Int32Type>(array),
            DataType::Int64 => dictionary::<Int64Type>(array),
            DataType::UInt8 => dictionary::<UInt8Type>(array),
            DataType::UInt16 => dictionary::<UInt16Type>(array),
            DataType::UInt32 => dictionary::<UInt32Type>(array),
            DataType::UInt64 => dictionary::<UInt64Type>(array),
            other => Err(format!("a dictionary keyed by {other} is not text")),
        },
        other => Err(format!("{other} is not text")),
    }
}

fn utf8(bytes: Option<&[u8]>) -> Option<&str> {
    bytes.and_then(|b| std::str::from_utf8(b).ok())
}

fn too_large() -> String {
    "its texts exceed the 2 GiB a text column holds".to_owned()
}

/// The texts, checked against [`MAX_BYTES`] before each is added (the
/// builder panics past it).
fn collect<'a>(
    len: usize,
    values: impl Iterator<Item = Option<&'a str>>,
) -> Result<StringArray, String> {
    let mut builder = StringBuilder::with_capacity(len, 0);
    let mut bytes = 0usize;
    for value in values {
        bytes += value.map_or(0, str::len);
        if bytes > MAX_BYTES {
            return Err(too_large());
        }
        builder.append_option(value);
    }
    Ok(builder.finish())
}

/// Each number as `write` writes it.
fn numbers<T: ArrowPrimitiveType>(
    array: &dyn Array,
    write: impl Fn(T::Native, &mut String) -> std::fmt::Result,
) -> Result<StringArray, String> {
    let array = array.as_primitive::<T>();
    let mut builder = StringBuilder::with_capacity(array.len(), array.len() * 4);
    let mut buffer = String::with_capacity(32);
    let mut bytes = 0usize;
    for value in array.iter() {
        match value {
            None => builder.append_null(),
            Some(value) => {
                buffer.clear();
                write(value, &mut buffer).map_err(|e| e.to_string())?;
                bytes += buffer.len();
                if bytes > MAX_BYTES {
                    return Err(too_large());
                }
                builder.append_value(&buffer);
            }
        }
    }
    Ok(builder.finish())
}

/// Each key's value, as text (null for a null key or value; a key out of
/// the dictionary, which Arrow's checks leave none of, is null too).
fn dictionary<K: ArrowDictionaryKeyType>(array: &dyn Array) -> Result<StringArray, String> {
    let array = array.as_dictionary::<K>();
    let values = text(array.values().as_ref())?;
    let value =
        |key: usize| (key < values.len() && values.is_valid(key)).then(|| values.value(key));
    collect(array.len(), array.keys_iter().map(|k| k.and_then(value)))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::builder::StringDictionaryBuilder;
    use arrow_array::{
        ArrayRef, BinaryArray, BooleanArray, DictionaryArray, Float16Array, Float32Array,
        Float64Array, Int32Array, Int64Array, Int8Array, LargeBinaryArray, LargeStringArray,
        NullArray, StringViewArray, UInt64Array, UInt8Array,
    };

    use super::*;

    /// Every type read as the cast reads it.
    #[test]
    fn text_is_what_the_cast_gives() {
        let floats = [
            0.0,
            -0.0,
            1.0,
            200.0,
            -1.5,
            0.1,
            1e-5,
            1.5e-5,
            1e-7,
            123456789.25,
            1e15,
            1e16,
            1.25e17,
            1e300,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        let mut dictionary = StringDictionaryBuilder::<Int8Type>::new();
        for v in [Some("a"), None, Some("bb"), Some("a")] {
            dictionary.append_option(v);
        }
        // A dictionary whose values hold a null, and keys over integers.
        let keys = UInt8Array::from(vec![Some(0), Some(1), None, Some(2)]);
        let values: ArrayRef = Arc::new(Int32Array::from(vec![Some(7), None, Some(-3)]));
        let int_dictionary = DictionaryArray::try_new(keys, values).unwrap();
        let arrays: Vec<ArrayRef> = vec![
            Arc::new(StringArray::from(vec![Some("a"), None, Some("")])),
            Arc::new(LargeStringArray::from(vec![Some("é"), None])),
            Arc::new(StringViewArray::from(vec![
                Some("a view longer than twelve bytes"),
                None,
                Some("short"),
            ])),
            Arc::new(BinaryArray::from(vec![
                Some(&b"ok"[..]),
                Some(&b"\xff\xfe"[..]),
                None,
            ])),
            Arc::new(LargeBinaryArray::from(vec![Some(&b"\xc3\xa9"[..]), None])),
            Arc::new(arrow_array::BinaryViewArray::from(vec![
                Some(&b"x"[..]),
                Some(&b"\x80"[..]),
            ])),
            Arc::new(NullArray::new(3)),
            Arc::new(BooleanArray::from(vec![Some(true), None, Some(false)])),
            Arc::new(Int8Array::from(vec![Some(i8::MIN), None, Some(0)])),
            Arc::new(Int64Array::from(vec![Some(i64::MIN), Some(200), None])),
            Arc::new(UInt64Array::from(vec![Some(u64::MAX), None])),
            Arc::new(Float64Array::from(floats.to_vec())),
            Arc::new(Float32Array::from(
                floats.iter().map(|&f| f as f32).collect::<Vec<_>>(),
            )),
            Arc::new(Float16Array::from(
                [0.0f32, 1.0, 200.0, -1.5, 0.1, 65504.0, f32::NAN]
                    .iter()
                    .map(|&f| <Float16Type as ArrowPrimitiveType>::Native::from_f32(f))
                    .collect::<Vec<_>>(),
            )),
            Arc::new(dictionary.finish()),
            Arc::new(int_dictionary),
            Arc::new(Int64Array::from(vec![1, 2, 3, 4]).slice(1, 2)),
        ];
        for array in arrays {
            let expected = arrow_cast::cast(&array, &DataType::Utf8).unwrap();
            let got = text(array.as_ref()).unwrap();
            assert_eq!(
                &got as &dyn Array,
                expected.as_ref(),
                "{}",
                array.data_type()
            );
        }
    }

    #[test]
    fn types_without_text_are_errors() {
        let dates = arrow_array::Date32Array::from(vec![1]);
        assert_eq!(text(&dates).unwrap_err(), "Date32 is not text");
    }
}
