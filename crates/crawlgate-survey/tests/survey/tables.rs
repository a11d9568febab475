//! Reports from tables: a survey's Parquet file and the same rows as a
//! Spark output folder (part files in another order, Spark's types, no
//! metadata, `_SUCCESS` and `.crc` files) give the same report and
//! summary, which are the survey's own; trends over several snapshots.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use crawlgate_survey::input::Input;
use crawlgate_survey::{tables, CrawlerSet, Plan, Survey};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use serde_json::Value;

use crate::warc_writer::{Response, WarcFile};
use crate::write;

/// The table's batches.
fn batches(path: &Path) -> Vec<RecordBatch> {
    ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).unwrap())
        .unwrap()
        .with_batch_size(700)
        .build()
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// The rows of `table` as Spark writes them into `folder`: three part
/// files, the last rows first, 64-bit integers and large strings, no
/// Arrow metadata, Spark's marker and checksum files beside them.
fn spark_folder(table: &Path, folder: &Path) {
    std::fs::create_dir_all(folder).unwrap();
    let mut batches = batches(table);
    batches.reverse();
    let schema = batches[0].schema();
    let fields: Vec<Field> = schema
        .fields()
        .iter()
        .map(|f| {
            let kind = match f.data_type() {
                DataType::Int32 => DataType::Int64,
                DataType::Utf8 => DataType::LargeUtf8,
                other => other.clone(),
            };
            Field::new(f.name(), kind, true)
        })
        .collect();
    let spark = Arc::new(Schema::new(fields));
    let parts = 3;
    for part in 0..parts {
        let name =
            format!("part-0000{part}-6f1c2d3e-aaaa-bbbb-cccc-0123456789ab-c000.snappy.parquet");
        let file = std::fs::File::create(folder.join(&name)).unwrap();
        let mut writer = ArrowWriter::try_new(file, spark.clone(), None).unwrap();
        for batch in batches.iter().skip(part).step_by(parts) {
            let columns: Vec<ArrayRef> = batch
                .columns()
                .iter()
                .zip(spark.fields())
                .map(|(c, f)| arrow_cast::cast(c, f.data_type()).unwrap())
                .collect();
            writer
                .write(&RecordBatch::try_new(spark.clone(), columns).unwrap())
                .unwrap();
        }
        writer.close().unwrap();
        std::fs::write(folder.join(format!(".{name}.crc")), b"crc").unwrap();
    }
    std::fs::write(folder.join("_SUCCESS"), b"").unwrap();
}

/// The page without the line saying where and when it was made.
fn without_provenance(page: &str) -> String {
    let start = page.find("<p class=\"sub\" data-provenance>").unwrap();
    let end = start + page[start..].find("</p>").unwrap();
    format!("{}{}", &page[..start], &page[end..])
}

fn survey_into(dir: &Path, name: &str, inputs: &[Input]) -> PathBuf {
    let table = dir.join(format!("{name}.parquet"));
    let plan = Plan {
        outputs: vec![
            table.clone(),
            dir.join(format!("{name}.html")),
            dir.join(format!("{name}.json")),
        ],
        ..Plan::default()
    };
    crawlgate_survey::run(
        &Survey::new(CrawlerSet::default_set()),
        inputs,
        &plan,
        &|_| {},
    )
    .unwrap();
    table
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_spark_folder_gives_the_report_of_the_table_and_of_the_survey() {
    let dir = tempfile::tempdir().unwrap();
    let mut warc = WarcFile::new(true);
    warc.response(&Response::status("down.example", 503, ""))
        .response(&Response::status("gone.example", 404, ""))
        .response(&Response::redirect(
            "http://moved.example/robots.txt",
            301,
            "https://nowhere.example/robots.txt",
        ))
        .raw(b"damage");
    let extra = write(dir.path(), "extra.warc.gz", &warc.bytes);
    let inputs = [Input::Folder(crawlgate_corpus::dir()), Input::Warc(extra)];
    let table = survey_into(dir.path(), "cli", &inputs);
    let folder = dir.path().join("spark-out");
    spark_folder(&table, &folder);

    let from_file = |stem: &str, tables: &[PathBuf]| {
        let html = dir.path().join(format!("{stem}.html"));
        let summary = dir.path().join(format!("{stem}.json"));
        tables::report(tables, &[html.clone(), summary.clone()]).unwrap();
        (std::fs::read_to_string(html).unwrap(), json(&summary))
    };
    let (file_page, file_json) = from_file("from-file", std::slice::from_ref(&table));
    let (folder_page, mut folder_json) = from_file("from-folder", std::slice::from_ref(&folder));
    // The labels are the tables' names.
    assert_eq!(folder_json["snapshots"][0]["label"], "spark-out");
    folder_json["snapshots"][0]["label"] = "cli".into();
    assert_eq!(folder_json, file_json);
    assert_eq!(
        without_provenance(&folder_page).replace("spark-out", "cli"),
        without_provenance(&file_page)
    );
    // And they are the survey's own, less the input accounting only a run
    // knows.
    let mut ran = json(&dir.path().join("cli.json"));
    assert!(ran["snapshots"][0]["summary"]["accounting"].is_object());
    ran["snapshots"][0]["summary"]["accounting"] = Value::Null;
    assert_eq!(ran, file_json);
    let ran_page = std::fs::read_to_string(dir.path().join("cli.html")).unwrap();
    let accounting = ran_page
        .find("<section><h2>Every record accounted for")
        .unwrap();
    let accounting_end = accounting + ran_page[accounting..].find("</section>").unwrap() + 10;
    let mut ran_page = format!("{}{}", &ran_page[..accounting], &ran_page[accounting_end..]);
    let took = ran_page.find(" The survey took ").unwrap();
    let took_end = took + ran_page[took..].find(" s.").unwrap() + 3;
    ran_page.replace_range(took..took_end, "");
    assert_eq!(
        without_provenance(&ran_page),
        without_provenance(&file_page)
    );
}

#[test]
fn trends_over_snapshots_and_the_change_since_the_one_before() {
    let dir = tempfile::tempdir().unwrap();
    let snapshot = |name: &str, bodies: &[(&str, &str)]| {
        let folder = dir.path().join(format!("{name}-files"));
        std::fs::create_dir_all(&folder).unwrap();
        for (host, body) in bodies {
            write(&folder, host, body.as_bytes());
        }
        survey_into(dir.path(), name, &[Input::Folder(folder)])
    };
    let open = "User-agent: *\nDisallow:\n";
    let gpt = "User-agent: GPTBot\nDisallow: /\n";
    let all = "User-agent: *\nDisallow: /\n";
    let tables = [
        snapshot(
            "2025-01",
            &[
                ("a.example", open),
                ("b.example", open),
                ("c.example", open),
            ],
        ),
        snapshot(
            "2025-02",
            &[("a.example", gpt), ("b.example", open), ("c.example", open)],
        ),
        snapshot(
            "2025-03",
            &[("a.example", gpt), ("b.example", all), ("c.example", open)],
        ),
    ];
    let html = dir.path().join("trends.html");
    let summary = dir.path().join("trends.json");
    let snapshots = tables::report(&tables, &[html.clone(), summary.clone()]).unwrap();
    let labels: Vec<&str> = snapshots.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["2025-01", "2025-02", "2025-03"]);
    let gptbot = |i: usize| {
        snapshots[i]
            .summary
            .crawlers
            .iter()
            .find(|c| c.token == "GPTBot")
            .unwrap()
            .blocked()
    };
    assert_eq!([gptbot(0), gptbot(1), gptbot(2)], [0, 1, 2]);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("data-trend=\"GPTBot\" data-blocked=\"0 1 2\""),
        "trend row"
    );
    assert!(page.contains("data-trend=\"CCBot\" data-blocked=\"0 0 1\""));
    // The last is compared with the one before it.
    let comparison = snapshots[2].summary.comparison.as_ref().unwrap();
    let change = comparison
        .crawlers
        .iter()
        .find(|c| c.token == "GPTBot")
        .unwrap();
    assert_eq!((change.started, change.stopped), (1, 0));
    assert!(page.contains("<h2>Since 2025-02</h2>"));
    assert_eq!(json(&summary)["snapshots"].as_array().unwrap().len(), 3);
}

#[test]
fn what_is_no_survey_table_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let bogus = write(dir.path(), "bogus.parquet", b"PAR1 not really");
    let error = tables::report(&[bogus], &[dir.path().join("r.html")]).unwrap_err();
    assert!(
        error.to_string().contains("cannot read the survey table"),
        "{error}"
    );
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let error = tables::report(&[empty], &[dir.path().join("r.html")]).unwrap_err();
    assert!(error.to_string().contains("no .parquet file"), "{error}");
    let error =
        tables::report(&[dir.path().join("x.parquet")], &[dir.path().join("r.csv")]).unwrap_err();
    assert!(
        error.to_string().contains(".html (the report) or .json"),
        "{error}"
    );
}

/// The crawlers' columns of verdict words (`root_X`, `cause_X`, `group_X`,
/// `path_X_N`) are written without statistics, whose range of a few words
/// could skip no row group; every other column keeps them (the preference
/// columns too, mostly null), and the values are all there.
#[test]
fn verdict_word_columns_are_written_without_statistics() {
    use parquet::file::reader::{FileReader, SerializedFileReader};

    let dir = tempfile::tempdir().unwrap();
    let mut warc = WarcFile::new(true);
    warc.response(&Response::ok(
        "open.example",
        "User-agent: *\nDisallow: /private/\n",
    ))
    .response(&Response::ok(
        "closed.example",
        "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
    ))
    .response(&Response::status("gone.example", 404, ""));
    let input = write(dir.path(), "few.warc.gz", &warc.bytes);
    let table = dir.path().join("few.parquet");
    let plan = Plan {
        outputs: vec![table.clone()],
        ..Plan::default()
    };
    let survey = Survey::new(CrawlerSet::default_set())
        .with_paths(["/private/"])
        .unwrap();
    crawlgate_survey::run(&survey, &[Input::Warc(input)], &plan, &|_| {}).unwrap();

    let reader = SerializedFileReader::new(std::fs::File::open(&table).unwrap()).unwrap();
    let schema = batches(&table)[0].schema();
    let verdict_words = |field: &Field| {
        field.data_type() == &DataType::Utf8
            && ["root_", "cause_", "group_", "path_"]
                .iter()
                .any(|prefix| field.name().starts_with(prefix))
    };
    let (mut without, mut with) = (0, 0);
    for group in reader.metadata().row_groups() {
        for (column, field) in group.columns().iter().zip(schema.fields()) {
            assert_eq!(column.column_path().string(), *field.name());
            if verdict_words(field) {
                assert!(column.statistics().is_none(), "{}", field.name());
                without += 1;
            } else {
                assert!(column.statistics().is_some(), "{}", field.name());
                with += 1;
            }
        }
    }
    // Four columns of words for each of the default crawlers (one path
    // asked), and the site, lint, line and preference columns.
    assert!(without >= 4 * 100, "{without}");
    assert!(with > 60, "{with}");

    let rows: Vec<RecordBatch> = batches(&table);
    let column = |name: &str| -> Vec<Option<String>> {
        rows.iter()
            .flat_map(|b| {
                let array = b.column_by_name(name).unwrap();
                let strings = array
                    .as_any()
                    .downcast_ref::<arrow_array::StringArray>()
                    .unwrap();
                strings
                    .iter()
                    .map(|v| v.map(str::to_owned))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let hosts = column("host");
    let gptbot = column("root_gptbot");
    let verdict = |host: &str| {
        let at = hosts
            .iter()
            .position(|h| h.as_deref() == Some(host))
            .unwrap();
        gptbot[at].clone()
    };
    assert_eq!(verdict("open.example").as_deref(), Some("allowed"));
    assert_eq!(verdict("closed.example").as_deref(), Some("disallowed"));
    assert_eq!(verdict("gone.example").as_deref(), Some("allowed"));
    let private = column("path_gptbot_1");
    let at = hosts
        .iter()
        .position(|h| h.as_deref() == Some("open.example"))
        .unwrap();
    assert_eq!(private[at].as_deref(), Some("disallowed"));
}
