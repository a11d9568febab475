//! A Parquet table written a row group at a time, its columns encoded in
//! parallel.
//!
//! A survey's table has hundreds of columns (several per crawler), and
//! encoding them is most of the cost of writing it: on one thread, the
//! table took longer than the merge that feeds it, while the cores that
//! classified the sites sat idle. The columns of a row group are encoded
//! independently, on the rayon pool the caller runs in, and appended in
//! schema order, so the file is the one [`ArrowWriter`] writes, byte for
//! byte.

use std::fs::File;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_writer::{
    compute_leaves, ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory,
};
use parquet::arrow::ArrowWriter;
use parquet::errors::Result;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use rayon::prelude::*;

/// The table being written.
pub(super) struct ParquetTable {
    file: SerializedFileWriter<File>,
    factory: ArrowRowGroupWriterFactory,
    schema: SchemaRef,
    /// The row group being filled, once it has rows: a writer per leaf
    /// column.
    columns: Option<Vec<ArrowColumnWriter>>,
    /// Rows in that row group.
    rows: usize,
    /// The most rows a row group holds.
    max_rows: usize,
}

impl ParquetTable {
    /// Starts the table in `file`, with row groups of at most `max_rows`
    /// rows (`properties` as [`ArrowWriter`] takes them, the Arrow schema
    /// kept in the file's metadata as it keeps it).
    pub(super) fn create(
        file: File,
        schema: SchemaRef,
        properties: WriterProperties,
        max_rows: usize,
    ) -> Result<ParquetTable> {
        let (file, factory) = ArrowWriter::try_new(file, schema.clone(), Some(properties))?
            .into_serialized_writer()?;
        Ok(ParquetTable {
            file,
            factory,
            schema,
            columns: None,
            rows: 0,
            max_rows: max_rows.max(1),
        })
    }

    /// Adds the rows of `batch`, closing row groups as they fill.
    pub(super) fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let mut remaining = batch.clone();
        while remaining.num_rows() > 0 {
            let room = self.max_rows - self.rows;
            let now = if remaining.num_rows() > room {
                let now = remaining.slice(0, room);
                remaining = remaining.slice(room, remaining.num_rows() - room);
                now
            } else {
                std::mem::replace(&mut remaining, batch.slice(0, 0))
            };
            let columns = match &mut self.columns {
                Some(columns) => columns,
                empty => empty.insert(
                    self.factory
                        .create_column_writers(self.file.flushed_row_groups().len())?,
                ),
            };
            let mut leaves = Vec::with_capacity(columns.len());
            for (field, column) in self.schema.fields().iter().zip(now.columns()) {
                leaves.extend(compute_leaves(field, column)?);
            }
            columns
                .par_iter_mut()
                .zip(leaves.par_iter())
                .try_for_each(|(writer, leaf)| writer.write(leaf))?;
            self.rows += now.num_rows();
            if self.rows >= self.max_rows {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// Closes the row group being filled, if any: its columns' last pages
    /// encoded in parallel, the chunks appended in order.
    fn flush(&mut self) -> Result<()> {
        let Some(columns) = self.columns.take() else {
            return Ok(());
        };
        self.rows = 0;
        let chunks: Vec<ArrowColumnChunk> = columns
            .into_par_iter()
            .map(ArrowColumnWriter::close)
            .collect::<Result<_>>()?;
        let mut row_group = self.file.next_row_group()?;
        for chunk in chunks {
            chunk.append_to_row_group(&mut row_group)?;
        }
        row_group.close()?;
        Ok(())
    }

    /// Closes the last row group, writes the footer and gives the file back.
    pub(super) fn into_inner(mut self) -> Result<File> {
        self.flush()?;
        self.file.into_inner()
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;
    use std::sync::Arc;

    use arrow_array::{ArrayRef, Int32Array, StringArray};
    use arrow_schema::{DataType, Field, Schema};
    use parquet::basic::Compression;

    use super::*;

    fn properties(max_rows: usize) -> WriterProperties {
        WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(max_rows))
            .build()
    }

    fn bytes(mut file: File) -> Vec<u8> {
        use std::io::Seek;
        let mut out = Vec::new();
        file.rewind().unwrap();
        file.read_to_end(&mut out).unwrap();
        out
    }

    /// Batches of uneven sizes across row groups of a few rows: the file
    /// is the one `ArrowWriter` writes, byte for byte.
    #[test]
    fn the_file_is_arrow_writers_across_row_groups() {
        let schema: SchemaRef = Arc::new(Schema::new(vec![
            Field::new("host", DataType::Utf8, true),
            Field::new("cause", DataType::Utf8, false),
            Field::new("line", DataType::Int32, true),
        ]));
        let causes = ["allowed", "blocked_by_star", "partly_blocked"];
        let batch = |from: usize, rows: usize| {
            let columns: Vec<ArrayRef> = vec![
                Arc::new(StringArray::from_iter(
                    (from..from + rows).map(|i| (i % 5 != 0).then(|| format!("site{i}.example"))),
                )),
                Arc::new(StringArray::from_iter_values(
                    (from..from + rows).map(|i| causes[i % 3]),
                )),
                Arc::new(Int32Array::from_iter(
                    (from..from + rows).map(|i| (i % 4 != 0).then_some(i as i32)),
                )),
            ];
            RecordBatch::try_new(schema.clone(), columns).unwrap()
        };
        for max_rows in [1, 7, 64, 1000] {
            let sizes = [3, 0, 10, 1, 25, 7, 40];
            let ours = tempfile::tempfile().unwrap();
            let theirs = tempfile::tempfile().unwrap();
            let mut table =
                ParquetTable::create(ours, schema.clone(), properties(max_rows), max_rows).unwrap();
            let mut writer =
                ArrowWriter::try_new(theirs, schema.clone(), Some(properties(max_rows))).unwrap();
            let mut from = 0;
            for rows in sizes {
                let batch = batch(from, rows);
                table.write(&batch).unwrap();
                writer.write(&batch).unwrap();
                from += rows;
            }
            let ours = bytes(table.into_inner().unwrap());
            let theirs = bytes(writer.into_inner().unwrap());
            assert!(ours.len() > 100);
            assert!(ours == theirs, "row groups of {max_rows}");
        }
    }
}
