//! Deciding a table of `(robots_txt, user_agent, url)` rows: the Arrow
//! columns in, the same rows plus `allowed`, `line` and `rule` out.
//!
//! Bodies that repeat across rows are parsed once: every distinct body
//! (by content: a hash, then a byte comparison) is parsed in parallel, then
//! the rows are decided in parallel chunks, each body's rules compiled once
//! per crawler's groups and shared by every chunk. No Python here: the
//! caller releases the GIL around [`decide_batch`].

use std::hash::Hasher;
use std::io::Write as _;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, BooleanArray, Int32Array, RecordBatch, StringArray};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Schema};
use crawlgate::{CompiledRobotsTxt, Profile, Reading, RobotsTxt, Verdict, Who};
use crawlgate_answers::ByProfile;
use crawlgate_survey::batch::BatchError;
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHasher};

/// The input columns, by name.
pub const ROBOTS_TXT: &str = "robots_txt";
/// The crawler's product token, used as given (as `crawlgate batch` does).
pub const USER_AGENT: &str = "user_agent";
/// The URL (absolute or path-only).
pub const URL: &str = "url";
/// The output columns, appended in this order.
pub const OUTPUTS: [&str; 3] = ["allowed", "line", "rule"];

/// Rows decided per parallel task.
const CHUNK_ROWS: usize = 8192;

/// The columns a batch of questions holds, as a missing column's error
/// names them.
const COLUMNS: &str = "columns robots_txt: binary, user_agent: string, url: string";

/// The columns a batch's answer adds, as the error of a batch that has one
/// names them.
const ADDED: &str = "allowed, line and rule";

/// The values of a binary or string column (its dictionary's values for a
/// dictionary column).
#[derive(Clone, Copy)]
enum Values<'a> {
    Binary(&'a arrow_array::BinaryArray),
    LargeBinary(&'a arrow_array::LargeBinaryArray),
    BinaryView(&'a arrow_array::BinaryViewArray),
    Utf8(&'a StringArray),
    LargeUtf8(&'a arrow_array::LargeStringArray),
    Utf8View(&'a arrow_array::StringViewArray),
}

impl<'a> Values<'a> {
    fn of(array: &'a dyn Array, text_only: bool) -> Option<Values<'a>> {
        Some(match array.data_type() {
            DataType::Utf8 => Values::Utf8(array.as_string::<i32>()),
            DataType::LargeUtf8 => Values::LargeUtf8(array.as_string::<i64>()),
            DataType::Utf8View => Values::Utf8View(array.as_string_view()),
            DataType::Binary if !text_only => Values::Binary(array.as_binary::<i32>()),
            DataType::LargeBinary if !text_only => Values::LargeBinary(array.as_binary::<i64>()),
            DataType::BinaryView if !text_only => Values::BinaryView(array.as_binary_view()),
            _ => return None,
        })
    }

    fn array(&self) -> &'a dyn Array {
        match *self {
            Values::Binary(a) => a,
            Values::LargeBinary(a) => a,
            Values::BinaryView(a) => a,
            Values::Utf8(a) => a,
            Values::LargeUtf8(a) => a,
            Values::Utf8View(a) => a,
        }
    }

    fn bytes(&self, index: usize) -> &'a [u8] {
        match *self {
            Values::Binary(a) => a.value(index),
            Values::LargeBinary(a) => a.value(index),
            Values::BinaryView(a) => a.value(index),
            Values::Utf8(a) => a.value(index).as_bytes(),
            Values::LargeUtf8(a) => a.value(index).as_bytes(),
            Values::Utf8View(a) => a.value(index).as_bytes(),
        }
    }

    /// The text of a string column (binary columns are never text columns).
    fn text(&self, index: usize) -> &'a str {
        match *self {
            Values::Utf8(a) => a.value(index),
            Values::LargeUtf8(a) => a.value(index),
            Values::Utf8View(a) => a.value(index),
            Values::Binary(_) | Values::LargeBinary(_) | Values::BinaryView(_) => "",
        }
    }
}

/// A column: its values, and for a dictionary column the value index of
/// each row.
struct Column<'a> {
    values: Values<'a>,
    keys: Option<Vec<usize>>,
    nulls: Option<NullBuffer>,
}

impl<'a> Column<'a> {
    fn new(array: &'a ArrayRef, name: &'static str, text_only: bool) -> Result<Self, BatchError> {
        let expected = if text_only {
            "string (utf8, large_utf8, utf8_view, or a dictionary of them)"
        } else {
            "binary or string (binary, large_binary, binary_view, utf8, large_utf8, utf8_view, or a dictionary of them)"
        };
        let wrong = || BatchError::WrongType {
            column: name,
            found: array.data_type().clone(),
            expected,
        };
        if let Some(dictionary) = array.as_any_dictionary_opt() {
            let values = Values::of(dictionary.values().as_ref(), text_only).ok_or_else(wrong)?;
            return Ok(Column {
                values,
                keys: Some(dictionary.normalized_keys()),
                nulls: array.logical_nulls(),
            });
        }
        Ok(Column {
            values: Values::of(array.as_ref(), text_only).ok_or_else(wrong)?,
            keys: None,
            nulls: array.logical_nulls(),
        })
    }

    /// The value index of a row, `None` when the row is null.
    fn unit(&self, row: usize) -> Option<usize> {
        if self.nulls.as_ref().is_some_and(|n| n.is_null(row)) {
            return None;
        }
        let unit = self.keys.as_ref().map_or(row, |keys| keys[row]);
        (!self.values.array().is_null(unit)).then_some(unit)
    }

    fn text(&self, row: usize) -> Option<&'a str> {
        self.unit(row).map(|u| self.values.text(u))
    }
}

/// A body read by `profile`, kept with the rules its crawlers compile.
fn compile(bytes: &[u8], profile: Profile) -> CompiledRobotsTxt {
    CompiledRobotsTxt::new(RobotsTxt::parse_with(bytes, profile))
}

fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut hasher = FxHasher::default();
    hasher.write(bytes);
    hasher.write_usize(bytes.len());
    hasher.finish()
}

/// The distinct bodies of the robots.txt column, parsed once each.
///
/// Only the values some row refers to are read: a dictionary shared by
/// many batches (as Arrow and Parquet readers hand them out) costs each
/// batch the entries it uses, not the whole dictionary.
struct Bodies<'a> {
    column: Column<'a>,
    /// Distinct-body index of each row ([`NONE`] for a null row).
    distinct_of_row: Vec<usize>,
    /// The value each distinct body was first seen at.
    first_unit: Vec<usize>,
    /// Each distinct body's readings, kept with the rules compiled for
    /// their crawlers, which every chunk shares: read up front by the
    /// profile the caller named (else Google's), and by another profile
    /// when a row's crawler is first read by it (Bing's crawlers by Bing's
    /// rules when no profile was named). Boxed, so that the slots of a body
    /// no crawler reads otherwise stay small.
    readings: Vec<ByProfile<Box<CompiledRobotsTxt>>>,
}

/// No distinct body: the row is null.
const NONE: usize = usize::MAX;

impl<'a> Bodies<'a> {
    fn parse(column: Column<'a>, rows: usize, base: Profile) -> Bodies<'a> {
        let values = column.values;
        // The values the rows use, each once, and which of them each row
        // uses: every row of a plain column is a value of its own; the rows
        // of a dictionary column share the entries their keys point to.
        let mut used: Vec<usize> = Vec::new();
        let mut used_of_row = vec![NONE; rows];
        let mut used_of_entry: FxHashMap<usize, usize> = FxHashMap::default();
        for (row, slot) in used_of_row.iter_mut().enumerate() {
            let Some(unit) = column.unit(row) else {
                continue;
            };
            *slot = if column.keys.is_some() {
                *used_of_entry.entry(unit).or_insert_with(|| {
                    used.push(unit);
                    used.len() - 1
                })
            } else {
                used.push(unit);
                used.len() - 1
            };
        }
        let hashes: Vec<u64> = used
            .par_iter()
            .map(|&unit| hash_bytes(values.bytes(unit)))
            .collect();
        let mut by_hash: FxHashMap<u64, usize> = FxHashMap::default();
        let mut first_unit = Vec::new();
        let distinct_of_used: Vec<usize> = used
            .iter()
            .zip(&hashes)
            .map(|(&unit, &hash)| {
                *by_hash.entry(hash).or_insert_with(|| {
                    first_unit.push(unit);
                    first_unit.len() - 1
                })
            })
            .collect();
        let distinct_of_row = used_of_row
            .into_iter()
            .map(|slot| distinct_of_used.get(slot).copied().unwrap_or(NONE))
            .collect();
        let readings: Vec<ByProfile<Box<CompiledRobotsTxt>>> =
            first_unit.iter().map(|_| ByProfile::new()).collect();
        readings
            .par_iter()
            .zip(&first_unit)
            .for_each(|(slots, &unit)| {
                slots.set(base, Box::new(compile(values.bytes(unit), base)));
            });
        Bodies {
            column,
            distinct_of_row,
            first_unit,
            readings,
        }
    }

    /// The parsed body of a row: the shared one, or its bytes when they
    /// only share a hash with it (then the caller parses them); `None` for
    /// a null row.
    fn of_row(&self, row: usize, profile: Profile) -> Option<Result<&CompiledRobotsTxt, &'a [u8]>> {
        let distinct = *self.distinct_of_row.get(row).filter(|&&d| d != NONE)?;
        let unit = self.column.unit(row)?;
        let first = self.first_unit[distinct];
        let values = self.column.values;
        if first != unit && values.bytes(first) != values.bytes(unit) {
            return Some(Err(values.bytes(unit)));
        }
        let made = self.readings[distinct]
            .get_or_init(profile, || Box::new(compile(values.bytes(first), profile)));
        // A profile without a slot: parsed by the caller.
        Some(made.map(|robots| &**robots).ok_or(values.bytes(unit)))
    }
}

/// One chunk's answers.
#[derive(Default)]
struct Answers {
    allowed: Vec<Option<bool>>,
    line: Vec<Option<i32>>,
    rule_text: Vec<u8>,
    rule_ends: Vec<usize>,
    rule_valid: Vec<bool>,
}

impl Answers {
    fn with_capacity(rows: usize) -> Answers {
        Answers {
            allowed: Vec::with_capacity(rows),
            line: Vec::with_capacity(rows),
            rule_text: Vec::with_capacity(rows * 24),
            rule_ends: Vec::with_capacity(rows),
            rule_valid: Vec::with_capacity(rows),
        }
    }

    fn push(&mut self, verdict: Option<&Verdict<'_>>) {
        let rule = verdict.and_then(|v| v.rule());
        self.allowed.push(verdict.map(|v| v.is_allowed()));
        self.line
            .push(rule.map(|r| i32::try_from(r.line()).unwrap_or(i32::MAX)));
        if let Some(rule) = rule {
            // Writing into a Vec cannot fail.
            let _ = write!(self.rule_text, "{rule}");
        }
        self.rule_ends.push(self.rule_text.len());
        self.rule_valid.push(rule.is_some());
    }
}

/// Decides the rows `range` of the batch.
fn decide_rows(
    bodies: &Bodies<'_>,
    agents: &Column<'_>,
    urls: &Column<'_>,
    (named, reading): (Option<Profile>, Reading),
    range: std::ops::Range<usize>,
) -> Answers {
    let mut answers = Answers::with_capacity(range.len());
    for row in range {
        let (Some(agent), Some(url)) = (agents.text(row), urls.text(row)) else {
            answers.push(None);
            continue;
        };
        // The crawler's own parser's profile unless the caller named one,
        // as `crawlgate check` and `crawlgate batch` choose it.
        let profile = reading.profile_for(agent, named);
        let Some(body) = bodies.of_row(row, profile) else {
            answers.push(None);
            continue;
        };
        match body {
            // Compiled once per body and crawler's groups, for all chunks.
            Ok(robots) => answers.push(Some(&robots.view(Who::read(agent, reading)).decide(url))),
            Err(bytes) => {
                let robots = RobotsTxt::parse_with(bytes, profile);
                answers.push(Some(&robots.decide(Who::read(agent, reading), url)));
            }
        }
    }
    answers
}

fn input<'a>(
    batch: &'a RecordBatch,
    name: &'static str,
    text_only: bool,
) -> Result<Column<'a>, BatchError> {
    let array = batch
        .column_by_name(name)
        .ok_or(BatchError::MissingColumn {
            column: name,
            expected: COLUMNS,
        })?;
    Column::new(array, name, text_only)
}

/// Decides every row of `batch` (columns `robots_txt`, `user_agent`, `url`)
/// and returns the batch with `allowed` (bool), `line` (int32, null when no
/// rule decided) and `rule` (string, `Disallow: /x` as written) appended.
/// A row with a null input has null answers.
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{cast::AsArray, ArrayRef, BinaryArray, RecordBatch, StringArray};
/// use crawlgate::Profile;
/// use _crawlgate::batch::decide_batch;
///
/// let body: &[u8] = b"User-agent: *\nDisallow: /private/\n";
/// let batch = RecordBatch::try_from_iter([
///     ("robots_txt", Arc::new(BinaryArray::from(vec![body, body])) as ArrayRef),
///     ("user_agent", Arc::new(StringArray::from(vec!["mybot", "mybot"])) as ArrayRef),
///     ("url", Arc::new(StringArray::from(vec!["/private/a", "/public"])) as ArrayRef),
/// ])?;
/// let out = decide_batch(&batch, Profile::GOOGLE)?;
/// let allowed = out.column_by_name("allowed").unwrap().as_boolean();
/// assert_eq!((allowed.value(0), allowed.value(1)), (false, true));
/// let rule = out.column_by_name("rule").unwrap().as_string::<i32>();
/// assert_eq!(rule.value(0), "Disallow: /private/");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn decide_batch(batch: &RecordBatch, profile: Profile) -> Result<RecordBatch, BatchError> {
    decide_batch_as(batch, Some(profile), Reading::OneToken)
}

/// [`decide_batch`], with the `user_agent` column read as `reading` says:
/// one product token (Google's library's reading, what `decide_batch`
/// does), or the crawler a person names (the registry's rules). With no
/// `profile`, each row's file is read by the profile
/// [`Reading::profile_for`] gives its crawler: in the crawler reading,
/// Bing's crawlers by Bing's rules and Yandex's robots by Yandex's, as
/// `crawlgate check` reads them; every other row by Google's.
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{cast::AsArray, ArrayRef, BinaryArray, RecordBatch, StringArray};
/// use crawlgate::Profile;
/// use _crawlgate::batch::decide_batch_as;
/// use crawlgate::Reading;
///
/// let body: &[u8] = b"User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n";
/// let batch = RecordBatch::try_from_iter([
///     ("robots_txt", Arc::new(BinaryArray::from(vec![body])) as ArrayRef),
///     ("user_agent", Arc::new(StringArray::from(vec!["Googlebot-Image"])) as ArrayRef),
///     ("url", Arc::new(StringArray::from(vec!["/photo.jpg"])) as ArrayRef),
/// ])?;
/// // Googlebot-Image follows the Googlebot group (Google's crawler documentation).
/// let out = decide_batch_as(&batch, Some(Profile::GOOGLE), Reading::Crawler)?;
/// assert!(out.column_by_name("allowed").unwrap().as_boolean().value(0));
/// // One token, as Google's library reads it: the `*` group.
/// let out = decide_batch_as(&batch, Some(Profile::GOOGLE), Reading::OneToken)?;
/// assert!(!out.column_by_name("allowed").unwrap().as_boolean().value(0));
///
/// // No profile named: Bingbot is read by Bing's rules, where its group
/// // ends at the Crawl-delay line (Google's runs on to `Disallow: /`).
/// let body: &[u8] = b"User-agent: bingbot\nCrawl-delay: 5\nUser-agent: Googlebot\nDisallow: /\n";
/// let batch = RecordBatch::try_from_iter([
///     ("robots_txt", Arc::new(BinaryArray::from(vec![body, body])) as ArrayRef),
///     ("user_agent", Arc::new(StringArray::from(vec!["bingbot", "Googlebot"])) as ArrayRef),
///     ("url", Arc::new(StringArray::from(vec!["/page", "/page"])) as ArrayRef),
/// ])?;
/// let out = decide_batch_as(&batch, None, Reading::Crawler)?;
/// let allowed = out.column_by_name("allowed").unwrap().as_boolean();
/// assert_eq!((allowed.value(0), allowed.value(1)), (true, false));
/// let out = decide_batch_as(&batch, Some(Profile::GOOGLE), Reading::Crawler)?;
/// assert!(!out.column_by_name("allowed").unwrap().as_boolean().value(0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn decide_batch_as(
    batch: &RecordBatch,
    profile: Option<Profile>,
    reading: Reading,
) -> Result<RecordBatch, BatchError> {
    for name in OUTPUTS {
        if batch.column_by_name(name).is_some() {
            return Err(BatchError::OutputExists {
                column: name,
                added: ADDED,
            });
        }
    }
    // Other profiles are read lazily, when a row's crawler chooses one.
    let bodies = Bodies::parse(
        input(batch, ROBOTS_TXT, false)?,
        batch.num_rows(),
        profile.unwrap_or_default(),
    );
    let agents = input(batch, USER_AGENT, true)?;
    let urls = input(batch, URL, true)?;
    let rows = batch.num_rows();
    let chunks: Vec<Answers> = (0..rows.div_ceil(CHUNK_ROWS))
        .into_par_iter()
        .map(|chunk| {
            let start = chunk * CHUNK_ROWS;
            decide_rows(
                &bodies,
                &agents,
                &urls,
                (profile, reading),
                start..rows.min(start + CHUNK_ROWS),
            )
        })
        .collect();
    let (allowed, line, rule) = concat(chunks, rows)?;

    let mut fields: Vec<Arc<Field>> = batch.schema().fields().iter().cloned().collect();
    fields.push(Arc::new(Field::new(OUTPUTS[0], DataType::Boolean, true)));
    fields.push(Arc::new(Field::new(OUTPUTS[1], DataType::Int32, true)));
    fields.push(Arc::new(Field::new(OUTPUTS[2], DataType::Utf8, true)));
    let schema = Schema::new_with_metadata(fields, batch.schema().metadata().clone());
    let mut columns = batch.columns().to_vec();
    columns.extend([allowed, line, rule]);
    Ok(RecordBatch::try_new(Arc::new(schema), columns)
        .expect("the appended columns have the batch's length and the declared types"))
}

/// Joins the chunks' answers into three columns.
fn concat(chunks: Vec<Answers>, rows: usize) -> Result<(ArrayRef, ArrayRef, ArrayRef), BatchError> {
    let mut allowed = Vec::with_capacity(rows);
    let mut line = Vec::with_capacity(rows);
    let text_len: usize = chunks.iter().map(|c| c.rule_text.len()).sum();
    if text_len > i32::MAX as usize {
        return Err(BatchError::TooLarge);
    }
    let mut text = Vec::with_capacity(text_len);
    let mut offsets = Vec::with_capacity(rows + 1);
    let mut valid = Vec::with_capacity(rows);
    offsets.push(0i32);
    for chunk in chunks {
        let base = text.len();
        allowed.extend(chunk.allowed);
        line.extend(chunk.line);
        text.extend_from_slice(&chunk.rule_text);
        // Bounded by the check above.
        offsets.extend(chunk.rule_ends.iter().map(|&end| (base + end) as i32));
        valid.extend(chunk.rule_valid);
    }
    let rule = StringArray::try_new(
        OffsetBuffer::new(ScalarBuffer::from(offsets)),
        Buffer::from_vec(text),
        Some(NullBuffer::from(valid)),
    )
    .expect("rule texts are UTF-8 with monotonic offsets");
    Ok((
        Arc::new(BooleanArray::from(allowed)),
        Arc::new(Int32Array::from(line)),
        Arc::new(rule),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::builder::{BinaryDictionaryBuilder, StringBuilder};
    use arrow_array::types::Int32Type;
    use arrow_array::{BinaryArray, DictionaryArray, LargeBinaryArray};

    const SHOP: &[u8] = b"User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\nUser-agent: Googlebot\nDisallow: /search\n";
    const OPEN: &[u8] = b"User-agent: *\nDisallow:\n";

    fn batch(robots: ArrayRef, agents: &[Option<&str>], urls: &[Option<&str>]) -> RecordBatch {
        RecordBatch::try_from_iter([
            ("robots_txt", robots),
            (
                "user_agent",
                Arc::new(StringArray::from(agents.to_vec())) as ArrayRef,
            ),
            (
                "url",
                Arc::new(StringArray::from(urls.to_vec())) as ArrayRef,
            ),
        ])
        .unwrap()
    }

    /// (allowed, line, rule) per row.
    fn answers(out: &RecordBatch) -> Vec<(Option<bool>, Option<i32>, Option<String>)> {
        let allowed = out.column_by_name("allowed").unwrap().as_boolean();
        let line = out
            .column_by_name("line")
            .unwrap()
            .as_primitive::<Int32Type>();
        let rule = out.column_by_name("rule").unwrap().as_string::<i32>();
        (0..out.num_rows())
            .map(|i| {
                (
                    allowed.is_valid(i).then(|| allowed.value(i)),
                    line.is_valid(i).then(|| line.value(i)),
                    rule.is_valid(i).then(|| rule.value(i).to_owned()),
                )
            })
            .collect()
    }

    /// The model's answer, as the expected row.
    fn model(body: &[u8], agent: &str, url: &str) -> (Option<bool>, Option<i32>, Option<String>) {
        let robots = RobotsTxt::parse(body);
        let verdict = robots.decide(agent, url);
        (
            Some(verdict.is_allowed()),
            verdict.line().map(|l| l as i32),
            verdict.rule().map(|r| r.to_string()),
        )
    }

    #[test]
    fn rows_get_the_models_answers_in_order() {
        let rows: Vec<(&[u8], &str, &str)> = vec![
            (SHOP, "mybot", "https://shop.example/private/x"),
            (SHOP, "mybot", "https://shop.example/private/press/kit"),
            (SHOP, "Googlebot", "https://shop.example/search?q=1"),
            (SHOP, "Googlebot", "https://shop.example/private/x"),
            (OPEN, "mybot", "/anything"),
            (SHOP, "mybot", "/"),
        ];
        let robots: ArrayRef = Arc::new(BinaryArray::from(
            rows.iter().map(|r| r.0).collect::<Vec<_>>(),
        ));
        let agents: Vec<Option<&str>> = rows.iter().map(|r| Some(r.1)).collect();
        let urls: Vec<Option<&str>> = rows.iter().map(|r| Some(r.2)).collect();
        let input = batch(robots, &agents, &urls);
        let out = decide_batch(&input, Profile::GOOGLE).unwrap();
        assert_eq!(out.num_columns(), 6);
        assert_eq!(out.column(0).as_ref(), input.column(0).as_ref());
        let expected: Vec<_> = rows.iter().map(|r| model(r.0, r.1, r.2)).collect();
        assert_eq!(answers(&out), expected);
        assert_eq!(
            answers(&out)[0],
            (Some(false), Some(2), Some("Disallow: /private/".to_owned()))
        );
        assert_eq!(
            answers(&out)[4],
            (Some(true), Some(2), Some("Disallow:".to_owned()))
        );
        assert_eq!(answers(&out)[5], (Some(true), None, None));
    }

    #[test]
    fn dictionary_and_large_columns_give_the_same_answers() {
        let bodies = [SHOP, OPEN, SHOP, SHOP];
        let agents = [
            Some("mybot"),
            Some("mybot"),
            Some("Googlebot"),
            Some("mybot"),
        ];
        let urls = [
            Some("/private/a"),
            Some("/private/a"),
            Some("/search"),
            Some("/x"),
        ];
        let plain = decide_batch(
            &batch(Arc::new(BinaryArray::from(bodies.to_vec())), &agents, &urls),
            Profile::GOOGLE,
        )
        .unwrap();
        let mut dictionary = BinaryDictionaryBuilder::<Int32Type>::new();
        for body in bodies {
            dictionary.append_value(body);
        }
        let dict = decide_batch(
            &batch(Arc::new(dictionary.finish()), &agents, &urls),
            Profile::GOOGLE,
        )
        .unwrap();
        let large = decide_batch(
            &batch(
                Arc::new(LargeBinaryArray::from(bodies.to_vec())),
                &agents,
                &urls,
            ),
            Profile::GOOGLE,
        )
        .unwrap();
        assert_eq!(answers(&plain), answers(&dict));
        assert_eq!(answers(&plain), answers(&large));
        assert_eq!(answers(&plain)[0].0, Some(false));
    }

    #[test]
    fn only_the_dictionary_entries_the_rows_use_are_parsed() {
        let mut dictionary = BinaryDictionaryBuilder::<Int32Type>::new();
        for i in 0..1000 {
            dictionary.append_value(format!("User-agent: *\nDisallow: /{i}/\n"));
        }
        let values = dictionary.finish().values().clone();
        // Three rows, two entries of the thousand, one row null.
        let keys = Int32Array::from(vec![Some(7), Some(900), Some(7), None]);
        let robots: ArrayRef = Arc::new(DictionaryArray::new(keys, values));
        let column = Column::new(&robots, ROBOTS_TXT, false).unwrap();
        assert_eq!(Bodies::parse(column, 4, Profile::GOOGLE).readings.len(), 2);

        let agents = [Some("a"); 4];
        let urls = [Some("/7/x"), Some("/7/x"), Some("/7/x"), Some("/7/x")];
        let out = answers(&decide_batch(&batch(robots, &agents, &urls), Profile::GOOGLE).unwrap());
        let model_7 = model(b"User-agent: *\nDisallow: /7/\n", "a", "/7/x");
        let model_900 = model(b"User-agent: *\nDisallow: /900/\n", "a", "/7/x");
        assert_eq!(
            out,
            vec![model_7.clone(), model_900, model_7, (None, None, None)]
        );
        assert_eq!(out[0].0, Some(false));
    }

    #[test]
    fn null_inputs_give_null_answers() {
        let robots: ArrayRef = Arc::new(BinaryArray::from(vec![None, Some(SHOP), Some(SHOP)]));
        let out = decide_batch(
            &batch(
                robots,
                &[Some("a"), None, Some("a")],
                &[Some("/"), Some("/"), None],
            ),
            Profile::GOOGLE,
        )
        .unwrap();
        assert_eq!(answers(&out), vec![(None, None, None); 3]);
    }

    #[test]
    fn without_a_profile_each_crawler_is_read_by_its_operators_rules() {
        // Bing's group ends at Crawl-delay; Yandex counts no `*` in a rule's
        // length; Google neither.
        let body: &[u8] = b"User-agent: bingbot\nCrawl-delay: 5\nUser-agent: *\nDisallow: /****x\nAllow: /ab\nDisallow: /private/\n";
        let agents = [
            Some("bingbot"),
            Some("YandexBot"),
            Some("Googlebot"),
            Some("bingbot"),
            Some("YandexBot"),
            Some("Googlebot"),
        ];
        let urls = [
            Some("/abx"),
            Some("/abx"),
            Some("/abx"),
            Some("/private/a"),
            Some("/private/a"),
            Some("/private/a"),
        ];
        let mut dictionary = BinaryDictionaryBuilder::<Int32Type>::new();
        for _ in agents {
            dictionary.append_value(body);
        }
        let input = batch(Arc::new(dictionary.finish()), &agents, &urls);
        let out = answers(&decide_batch_as(&input, None, Reading::Crawler).unwrap());
        let expected: Vec<_> = agents
            .iter()
            .zip(urls)
            .map(|(agent, url)| {
                let (agent, url) = (agent.unwrap(), url.unwrap());
                let profile = Reading::Crawler.profile_for(agent, None);
                let robots = RobotsTxt::parse_with(body, profile);
                let verdict = robots.decide(Who::read(agent, Reading::Crawler), url);
                (
                    Some(verdict.is_allowed()),
                    verdict.rule().map(|r| r.line() as i32),
                    verdict.rule().map(|r| r.to_string()),
                )
            })
            .collect();
        assert_eq!(out, expected);
        // The three readings differ on these rows, so the test tells them apart.
        let allowed: Vec<_> = out.iter().map(|a| a.0).collect();
        assert_eq!(
            allowed,
            [true, true, false, true, false, false].map(Some).to_vec()
        );
        // A named profile reads every row by it.
        let google =
            answers(&decide_batch_as(&input, Some(Profile::GOOGLE), Reading::Crawler).unwrap());
        assert_eq!(google[0].0, Some(false));
        assert_eq!(google[3].0, Some(false));
    }

    #[test]
    fn the_profile_is_applied() {
        let body: &[u8] = b"User-agent: *\nDisallow: /*.php$\n";
        let robots: ArrayRef = Arc::new(BinaryArray::from(vec![body]));
        let input = batch(robots, &[Some("bot")], &[Some("/index.php")]);
        assert_eq!(
            answers(&decide_batch(&input, Profile::GOOGLE).unwrap())[0].0,
            Some(false)
        );
        assert_eq!(
            answers(&decide_batch(&input, Profile::LEGACY).unwrap())[0].0,
            Some(true)
        );
    }

    #[test]
    fn many_rows_across_chunks_match_the_model() {
        let letter = |i: usize| char::from(b'a' + (i % 26) as u8);
        let bodies: Vec<Vec<u8>> = (0..50)
            .map(|i| {
                let l = letter(i);
                format!("User-agent: bot{l}\nDisallow: /{l}/\n\nUser-agent: *\nDisallow: /all/\n")
                    .into_bytes()
            })
            .collect();
        let rows = CHUNK_ROWS * 2 + 17;
        let body_of = |row: usize| &bodies[(row / 7) % bodies.len()];
        let agent_of = |row: usize| format!("bot{}", letter(row % 5));
        let url_of = |row: usize| format!("/{}/page{}", ["a", "b", "all", "c"][row % 4], row % 3);
        let robots: ArrayRef = Arc::new(BinaryArray::from(
            (0..rows).map(|r| body_of(r).as_slice()).collect::<Vec<_>>(),
        ));
        let mut agents = StringBuilder::new();
        let mut urls = StringBuilder::new();
        for row in 0..rows {
            agents.append_value(agent_of(row));
            urls.append_value(url_of(row));
        }
        let input = RecordBatch::try_from_iter([
            ("robots_txt", robots),
            ("user_agent", Arc::new(agents.finish()) as ArrayRef),
            ("url", Arc::new(urls.finish()) as ArrayRef),
        ])
        .unwrap();
        let out = answers(&decide_batch(&input, Profile::GOOGLE).unwrap());
        for (row, answer) in out.iter().enumerate() {
            assert_eq!(
                *answer,
                model(body_of(row), &agent_of(row), &url_of(row)),
                "row {row}"
            );
        }
        assert!(out.iter().any(|a| a.0 == Some(false)));
        assert!(out.iter().any(|a| a.0 == Some(true)));
    }

    #[test]
    fn bad_batches_are_clear_errors() {
        let robots: ArrayRef = Arc::new(BinaryArray::from(vec![SHOP]));
        let good = batch(robots.clone(), &[Some("a")], &[Some("/")]);
        let missing = good.project(&[0, 1]).unwrap();
        let err = decide_batch(&missing, Profile::GOOGLE).unwrap_err();
        assert!(matches!(
            err,
            BatchError::MissingColumn { column: "url", .. }
        ));
        assert_eq!(
            err.to_string(),
            "the batch has no `url` column (expected columns robots_txt: binary, user_agent: string, url: string)"
        );
        let numbers = RecordBatch::try_from_iter([
            ("robots_txt", robots.clone()),
            (
                "user_agent",
                Arc::new(Int32Array::from(vec![1])) as ArrayRef,
            ),
            ("url", Arc::new(StringArray::from(vec!["/"])) as ArrayRef),
        ])
        .unwrap();
        let err = decide_batch(&numbers, Profile::GOOGLE).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("column `user_agent` is Int32, expected string"),
            "{err}"
        );
        let twice = decide_batch(&good, Profile::GOOGLE).unwrap();
        let err = decide_batch(&twice, Profile::GOOGLE).unwrap_err();
        assert!(matches!(
            err,
            BatchError::OutputExists {
                column: "allowed",
                ..
            }
        ));
        assert_eq!(
            err.to_string(),
            "the batch already has a column named `allowed`; rename it first (allowed, line and rule are added)"
        );
    }
}
