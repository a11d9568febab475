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
