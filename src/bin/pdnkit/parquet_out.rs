//! `convert --to parquet`: the games table (or with `--moves` the plies
//! table) as Parquet with real types (docs/parquet.md), zstd-compressed,
//! written in row groups as the games come (memory bounded by a row group,
//! not by the archive), in one file or a hive-style folder of partitions
//! (`--partition-by variant|year|event`: `DIR/variant=international/part-0.parquet`).

use crate::output::Out;
use arrow_array::builder::{
    BooleanBuilder, Date32Builder, Int32Builder, Int64Builder, StringBuilder,
};
use arrow_array::{ArrayRef, ListArray, RecordBatch, StructArray};
use arrow_buffer::{OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Fields, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;

use pdnkit::pdn::{Game, Locator};
use pdnkit::replay::GameReport;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Rows gathered before they are handed to the writer as one batch.
const BATCH_ROWS: usize = 8192;
/// Rows of a row group (a single file); partitions write a row group per batch.
const ROW_GROUP_ROWS: usize = 65_536;

pub use crate::common::PartitionBy;

/// One column being gathered.
enum Col {
    Str(StringBuilder),
    I64(Int64Builder),
    I32(Int32Builder),
    Bool(BooleanBuilder),
    Date(Date32Builder),
}

impl Col {
    fn of(t: &DataType) -> Col {
        match t {
            DataType::Int64 => Col::I64(Int64Builder::new()),
            DataType::Int32 => Col::I32(Int32Builder::new()),
            DataType::Boolean => Col::Bool(BooleanBuilder::new()),
            DataType::Date32 => Col::Date(Date32Builder::new()),
            _ => Col::Str(StringBuilder::new()),
        }
    }
    fn finish(&mut self) -> ArrayRef {
        match self {
            Col::Str(b) => Arc::new(b.finish()),
            Col::I64(b) => Arc::new(b.finish()),
            Col::I32(b) => Arc::new(b.finish()),
            Col::Bool(b) => Arc::new(b.finish()),
            Col::Date(b) => Arc::new(b.finish()),
        }
    }
}

/// A value of a row, in the order of the schema's columns (the library's
/// one games table: `export::GameRow::values`).
use pdnkit::export::Value as V;

impl Col {
    fn push(&mut self, v: &V<'_>) {
        match (self, v) {
            (Col::Str(b), V::Text(s)) => b.append_option(*s),
            (Col::I64(b), V::Int(i)) => b.append_option(*i),
            (Col::I32(b), V::Int(i)) => b.append_option(i.map(|i| i as i32)),
            (Col::Bool(b), V::Bool(x)) => b.append_option(*x),
            (Col::Date(b), V::Date(d)) => b.append_option(*d),
            (Col::Str(b), _) => b.append_null(),
            (Col::I64(b), _) => b.append_null(),
            (Col::I32(b), _) => b.append_null(),
            (Col::Bool(b), _) => b.append_null(),
            (Col::Date(b), _) => b.append_null(),
        }
    }
}

/// A game's findings, as the `diagnostics` column's list of structs.
#[derive(Default)]
struct Diags {
    offsets: Vec<i32>,
    severity: StringBuilder,
    code: StringBuilder,
    message: StringBuilder,
    line: Int32Builder,
    column: Int32Builder,
    ply: Int32Builder,
}

fn diag_fields() -> Fields {
    Fields::from(
        pdnkit::export::GameRow::DIAGNOSTIC_FIELDS
            .iter()
            .map(field)
            .collect::<Vec<_>>(),
    )
}

fn diag_item() -> Arc<Field> {
    Arc::new(Field::new("item", DataType::Struct(diag_fields()), false))
}

impl Diags {
    fn push(&mut self, g: &Game, r: &GameReport) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        let mut loc = Locator::new(g);
        for d in &r.diagnostics {
            let (line, column) = loc.locate(d.span.start);
            self.severity.append_value(d.severity.as_str());
            self.code.append_value(d.code.as_str());
            self.message.append_value(&d.message);
            self.line.append_value(line as i32);
            self.column.append_value(column as i32);
            self.ply.append_option(d.ply.map(|p| p as i32));
        }
        let last = self.offsets.last().copied().unwrap_or(0);
        self.offsets.push(last + r.diagnostics.len() as i32);
    }
    fn finish(&mut self) -> Result<ArrayRef, String> {
        let children: Vec<ArrayRef> = vec![
            Arc::new(self.severity.finish()),
            Arc::new(self.code.finish()),
            Arc::new(self.message.finish()),
            Arc::new(self.line.finish()),
            Arc::new(self.column.finish()),
            Arc::new(self.ply.finish()),
        ];
        let items =
            StructArray::try_new(diag_fields(), children, None).map_err(|e| e.to_string())?;
        let offsets = std::mem::take(&mut self.offsets);
        let offsets = if offsets.is_empty() { vec![0] } else { offsets };
        let list = ListArray::try_new(
            diag_item(),
            OffsetBuffer::new(ScalarBuffer::from(offsets)),
            Arc::new(items),
            None,
        )
        .map_err(|e| e.to_string())?;
        Ok(Arc::new(list))
    }
}

/// An Arrow field of a column of the library's games table.
pub(crate) fn field(c: &pdnkit::export::Column) -> Field {
    use pdnkit::export::ColumnType;
    let ty = match c.ty {
        ColumnType::Text => DataType::Utf8,
        ColumnType::Int64 => DataType::Int64,
        ColumnType::Int32 => DataType::Int32,
        ColumnType::Bool => DataType::Boolean,
        ColumnType::Date => DataType::Date32,
        ColumnType::UInt64 => DataType::UInt64,
        ColumnType::UInt32 => DataType::UInt32,
    };
    Field::new(c.name, ty, c.nullable)
}

/// The games table's columns (the library's `export::GameRow::TABLE`,
/// docs/parquet.md), then the `--tag` columns.
fn games_schema(tags: &[(String, String)]) -> Vec<Field> {
    let mut f: Vec<Field> = pdnkit::export::GameRow::TABLE.iter().map(field).collect();
    f.extend(
        tags.iter()
            .map(|(_, c)| Field::new(c, DataType::Utf8, true)),
    );
    f
}

/// The plies table's columns (docs/parquet.md).
fn plies_schema(tags: &[(String, String)]) -> Vec<Field> {
    use DataType::{Boolean, Int32, Int64, Utf8};
    let mut f = vec![
        Field::new("file", Utf8, false),
        Field::new("game", Int64, false),
        Field::new("ply", Int32, false),
        Field::new("move_number", Int32, false),
        Field::new("side", Utf8, false),
        Field::new("written", Utf8, false),
        Field::new("move", Utf8, false),
        Field::new("algebraic", Utf8, true),
        Field::new("from", Int32, false),
        Field::new("to", Int32, false),
        Field::new("captured", Int32, false),
        Field::new("captured_squares", Utf8, false),
        Field::new("piece", Utf8, false),
        Field::new("crowned", Boolean, false),
        Field::new("stood", Boolean, false),
        Field::new("fen_before", Utf8, false),
        Field::new("fen_after", Utf8, false),
    ];
    f.extend(tags.iter().map(|(_, c)| Field::new(c, Utf8, true)));
    f
}

/// One table being written: its columns gathered up to a batch, and its file.
struct Part {
    cols: Vec<Col>,
    diags: Option<Diags>,
    rows: usize,
    writer: ArrowWriter<Out>,
    name: String,
}

/// The Parquet output of `convert`.
pub struct ParquetOut {
    schema: Arc<Schema>,
    moves: bool,
    /// The `--tag` names and their columns.
    tags: Vec<(String, String)>,
    /// `-o FILE`, opened (without partitions).
    single: Option<Out>,
    /// `-o DIR` with partitions: written in a staging folder, moved into DIR
    /// when the run is complete.
    staged: Option<crate::output::StagedDir>,
    partition: Option<PartitionBy>,
    parts: BTreeMap<String, Part>,
}

/// Bytes of a partition value kept in a folder name: file systems allow 255
/// bytes a name, and `event=` and the hash take their share.
const PARTITION_VALUE_BYTES: usize = 200;

fn properties(partitioned: bool) -> Result<WriterProperties, String> {
    let level = ZstdLevel::try_new(3).map_err(|e| e.to_string())?;
    Ok(WriterProperties::builder()
        .set_compression(Compression::ZSTD(level))
        .set_max_row_group_row_count(Some(if partitioned {
            BATCH_ROWS
        } else {
            ROW_GROUP_ROWS
        }))
        .set_created_by(format!("pdnkit {}", env!("CARGO_PKG_VERSION")))
        .build())
}

/// A partition's folder name: the value percent-encoded as Hive, Spark,
/// pyarrow and DuckDB write and read it (`A/B` is `A%2FB`), so a hive reader
/// gets the exact value back. Encoded: control characters, DEL, a space at
/// either end, and `"#%'*/:;<=>?[\]^{|}~` (what Hive escapes, what Windows
/// forbids, and `~`, which marks a hash); letters of every script stay as
/// they are. An empty value (or spaces only) is `__HIVE_DEFAULT_PARTITION__`,
/// which readers give as null. A name longer than [`PARTITION_VALUE_BYTES`]
/// (long official event titles) keeps its first bytes, cut between
/// characters and escapes, then `~` and 16 hex digits of a hash of the whole
/// value (FNV-1a, 64 bits): two long values never share a folder, the same
/// value always gets the same one, and the full value is in the data's own
/// column (docs/limits.md).
fn partition_value(v: Option<&str>) -> String {
    let Some(v) = v.filter(|v| !v.trim().is_empty()) else {
        return "__HIVE_DEFAULT_PARTITION__".into();
    };
    let (start, end) = (v.len() - v.trim_start().len(), v.trim_end().len());
    let mut name = String::with_capacity(v.len());
    // Where each character's text begins in `name`: a cut falls there.
    let mut cuts = Vec::with_capacity(v.len());
    for (i, c) in v.char_indices() {
        cuts.push(name.len());
        let escape = c.is_control()
            || (c == ' ' && (i < start || i >= end))
            || "\"#%'*/:;<=>?[\\]^{|}~\u{7f}".contains(c);
        if escape {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                name.push_str(&format!("%{b:02X}"));
            }
        } else {
            name.push(c);
        }
    }
    if name.len() <= PARTITION_VALUE_BYTES {
        return name;
    }
    let hash = v.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let cut = cuts
        .into_iter()
        .take_while(|&c| c <= PARTITION_VALUE_BYTES)
        .last()
        .unwrap_or(0);
    format!("{}~{hash:016x}", &name[..cut])
}

impl ParquetOut {
    /// `single`: the file opened for `-o FILE`; else `dest` is the folder of
    /// the partitions, whose earlier partitions `force` replaces.
    pub fn new(
        single: Option<Out>,
        dest: PathBuf,
        force: bool,
        moves: bool,
        tags: Vec<(String, String)>,
        partition: Option<PartitionBy>,
    ) -> Result<ParquetOut, String> {
        let mut fields = if moves {
            plies_schema(&tags)
        } else {
            games_schema(&tags)
        };
        if !moves {
            fields.push(Field::new(
                "diagnostics",
                DataType::List(diag_item()),
                false,
            ));
        }
        let staged = match partition {
            Some(_) => Some(crate::output::StagedDir::create(&dest, force)?),
            None => None,
        };
        Ok(ParquetOut {
            schema: Arc::new(Schema::new(fields)),
            single,
            moves,
            tags,
            staged,
            partition,
            parts: BTreeMap::new(),
        })
    }

    /// The partition a game goes to ("" without partitions).
    fn key(&self, g: &Game, r: &GameReport) -> String {
        let Some(p) = self.partition else {
            return String::new();
        };
        let value = match p {
            PartitionBy::Variant => partition_value(r.kind.map(|k| k.name())),
            PartitionBy::Year => {
                // The year as the library reads it: `0000`, `????` and a
                // Date with no four-digit year are all the unknown partition.
                let year = g
                    .tag("Date")
                    .and_then(|d| pdnkit::pdn::PdnDate::parse(&d).year)
                    .map(|y| format!("{y:04}"));
                partition_value(year.as_deref())
            }
            PartitionBy::Event => partition_value(g.tag("Event").as_deref()),
        };
        format!("{}={value}", p.name())
    }

    fn part(&mut self, key: String) -> Result<&mut Part, String> {
        if !self.parts.contains_key(&key) {
            let out = if key.is_empty() {
                self.single.take().ok_or("the output is already written")?
            } else {
                let Some(staged) = &self.staged else {
                    return Err("no folder for the partitions".into());
                };
                let dir = staged.path().join(&key);
                std::fs::create_dir(&dir)
                    .map_err(|e| format!("{}: {e}", crate::render::path(&dir)))?;
                let path = dir.join("part-0.parquet");
                Out::open(&path).map_err(|e| format!("{}: {e}", crate::render::path(&path)))?
            };
            let name = out.name();
            let writer = ArrowWriter::try_new(
                out,
                Arc::clone(&self.schema),
                Some(properties(self.partition.is_some())?),
            )
            .map_err(|e| format!("{name}: {e}"))?;
            let part = Part {
                cols: self
                    .schema
                    .fields()
                    .iter()
                    .filter(|f| f.name() != "diagnostics")
                    .map(|f| Col::of(f.data_type()))
                    .collect(),
                diags: (!self.moves).then(Diags::default),
                rows: 0,
                writer,
                name,
            };
            self.parts.insert(key.clone(), part);
        }
        self.parts
            .get_mut(&key)
            .ok_or_else(|| "partition".to_string())
    }

    /// Adds a game (or its plies); writes a batch when one is full.
    pub fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> Result<(), String> {
        let key = self.key(g, r);
        let tags: Vec<Option<String>> = self.tags.iter().map(|(t, _)| g.tag(t)).collect();
        let moves = self.moves;
        let schema = Arc::clone(&self.schema);
        let part = self.part(key)?;
        if moves {
            for (row, played) in pdnkit::export::PlyRow::rows(file, g, r, true).zip(&r.played) {
                let before = played.before.to_fen();
                let mut values = vec![
                    V::Text(Some(&row.file)),
                    V::Int(Some(row.game as i64)),
                    V::Int(Some(i64::from(row.ply))),
                    V::Int(Some(i64::from(row.move_number))),
                    V::Text(Some(row.side)),
                    V::Text(Some(&row.written)),
                    V::Text(Some(&row.mv)),
                    V::Text(row.algebraic.as_deref()),
                    V::Int(Some(i64::from(row.from))),
                    V::Int(Some(i64::from(row.to))),
                    V::Int(Some(i64::from(row.captured))),
                    V::Text(Some(&row.captured_squares)),
                    V::Text(Some(row.piece)),
                    V::Bool(Some(row.crowned)),
                    V::Bool(Some(row.stood)),
                    V::Text(Some(&before)),
                    V::Text(row.fen.as_deref()),
                ];
                values.extend(tags.iter().map(|t| V::Text(t.as_deref())));
                part.push(&values);
                part.flush_if_full(&schema)?;
            }
            return Ok(());
        }
        let row = pdnkit::export::GameRow::new(file, g, r);
        let mut values = row.values().to_vec();
        values.extend(tags.iter().map(|t| V::Text(t.as_deref())));
        part.push(&values);
        if let Some(d) = &mut part.diags {
            d.push(g, r);
        }
        part.flush_if_full(&schema)
    }

    /// Writes what is left and closes every file; `complete`: commit them
    /// (else they are removed). Returns the files written.
    pub fn finish(mut self, complete: bool) -> Result<Vec<String>, String> {
        if self.parts.is_empty() && complete && self.single.is_some() {
            // No game: an empty table still has its schema.
            self.part(String::new())?;
        }
        let schema = Arc::clone(&self.schema);
        let mut names = Vec::new();
        let mut result = Ok(());
        for (_, mut part) in std::mem::take(&mut self.parts) {
            let name = part.name.clone();
            let done = part.flush(&schema).and_then(|()| {
                let out = part
                    .writer
                    .into_inner()
                    .map_err(|e| format!("{name}: {e}"))?;
                out.finish_io(complete && result.is_ok())
                    .map_err(|e| format!("{name}: {e}"))
            });
            match done {
                Ok(()) => names.push(name),
                Err(e) => result = result.and(Err(e)),
            }
        }
        // A failed run leaves nothing behind: the staging folder is dropped.
        if let Some(staged) = self.staged.take() {
            if complete && result.is_ok() {
                result = staged
                    .commit()
                    .map_err(|e| format!("cannot put the partitions in place: {e}"));
            }
        }
        result.map(|()| names)
    }
}

impl Part {
    fn push(&mut self, values: &[V<'_>]) {
        for (c, v) in self.cols.iter_mut().zip(values) {
            c.push(v);
        }
        self.rows += 1;
    }
    fn flush_if_full(&mut self, schema: &Arc<Schema>) -> Result<(), String> {
        if self.rows >= BATCH_ROWS {
            self.flush(schema)?;
        }
        Ok(())
    }
    fn flush(&mut self, schema: &Arc<Schema>) -> Result<(), String> {
        if self.rows == 0 {
            return Ok(());
        }
        let mut arrays: Vec<ArrayRef> = self.cols.iter_mut().map(Col::finish).collect();
        if let Some(d) = &mut self.diags {
            arrays.push(d.finish()?);
        }
        let batch = RecordBatch::try_new(Arc::clone(schema), arrays)
            .map_err(|e| format!("{}: {e}", self.name))?;
        self.writer
            .write(&batch)
            .map_err(|e| format!("{}: {e}", self.name))?;
        self.rows = 0;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_dates_only() {
        let full_date = |t: &str| pdnkit::pdn::PdnDate::parse(t).days_since_epoch();
        assert_eq!(full_date("1970.01.01"), Some(0));
        assert_eq!(full_date("2016.02.29"), Some(16_860));
        assert_eq!(full_date("2000-03-01"), Some(11_017));
        assert_eq!(full_date("2015.02.29"), None);
        assert_eq!(full_date("2016.??.??"), None);
        assert_eq!(full_date("2016"), None);
        assert_eq!(full_date("16.01.01"), None);
        assert_eq!(full_date("25.11.2000"), full_date("2000.11.25"));
    }

    #[test]
    fn partition_values_stay_in_their_folder() {
        assert_eq!(partition_value(Some("a/b=c")), "a%2Fb%3Dc");
        assert_eq!(partition_value(Some("../x")), "..%2Fx");
        assert_eq!(partition_value(Some("A_B")), "A_B");
        assert_eq!(partition_value(Some("50%:1\\2")), "50%25%3A1%5C2");
        assert_eq!(partition_value(Some(" a b ")), "%20a b%20");
        assert_eq!(partition_value(Some("Ч\n~")), "Ч%0A%7E");
        assert_eq!(partition_value(Some(" ")), "__HIVE_DEFAULT_PARTITION__");
        assert_eq!(partition_value(None), "__HIVE_DEFAULT_PARTITION__");
    }
}
