//! The position index of `pdnkit index`, read back by `pdnkit explore
//! --index` (docs/explore.md): one Parquet file, a row per position and
//! move played from it, with the counts of the explorer. Written as the
//! library hands the rows over (memory bounded by a batch); read a batch at
//! a time, keeping only the rows of the positions asked.

use crate::output::Out;
use arrow_array::builder::{StringBuilder, UInt32Builder, UInt64Builder};
use arrow_array::{Array, ArrayRef, RecordBatch, StringArray, UInt32Array, UInt64Array};
use arrow_schema::Schema;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use pdnkit::stats::Group;
use pdnkit::{Position, Variant};
use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

/// Rows gathered before they are written as one batch.
const BATCH_ROWS: usize = 8192;
/// The file's key-value metadata entry that says what it is.
const META_KEY: &str = "pdnkit.index";

/// The index's columns: the library's one definition.
fn schema() -> Schema {
    Schema::new(
        pdnkit::stats::Explorer::INDEX_TABLE
            .iter()
            .map(crate::parquet_out::field)
            .collect::<Vec<_>>(),
    )
}

/// What the index says of itself.
pub struct Header {
    pub plies: u32,
    pub variants: Vec<Variant>,
}

/// The index being written.
pub struct IndexWriter {
    writer: ArrowWriter<Out>,
    schema: Arc<Schema>,
    strings: [StringBuilder; 4],
    counts: [UInt64Builder; 6],
    years: [UInt32Builder; 2],
    rows: usize,
}

impl IndexWriter {
    /// A new index at `path` (written in place only when [`IndexWriter::finish`]
    /// is told the run is complete).
    pub fn create(path: &Path, header: &Header) -> Result<IndexWriter, String> {
        let out = Out::open(path).map_err(|e| format!("{}: {e}", crate::render::path(path)))?;
        let level = ZstdLevel::try_new(3).map_err(|e| e.to_string())?;
        let names: Vec<&str> = header.variants.iter().map(|v| v.name()).collect();
        let meta = serde_json::json!({"version": 1, "plies": header.plies, "variants": names});
        let props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(level))
            .set_created_by(format!("pdnkit {}", env!("CARGO_PKG_VERSION")))
            .set_key_value_metadata(Some(vec![KeyValue::new(META_KEY.into(), meta.to_string())]))
            .build();
        // In the Arrow schema too, so that pyarrow's `read_table` keeps it
        // (`pdnkit.merge_index` reads it there).
        let schema = Arc::new(
            schema().with_metadata(
                [(META_KEY.to_string(), meta.to_string())]
                    .into_iter()
                    .collect(),
            ),
        );
        let writer = ArrowWriter::try_new(out, Arc::clone(&schema), Some(props))
            .map_err(|e| e.to_string())?;
        Ok(IndexWriter {
            writer,
            schema,
            strings: Default::default(),
            counts: Default::default(),
            years: Default::default(),
            rows: 0,
        })
    }

    /// Adds a row: `g` played from `pos` (`g.name` the move, `""` none).
    pub fn push(&mut self, pos: &Position, g: &Group) -> Result<(), String> {
        let [variant, position, mv, recent] = &mut self.strings;
        variant.append_value(pos.variant().name());
        position.append_value(pos.to_fen());
        if g.name.is_empty() {
            mv.append_null();
        } else {
            mv.append_value(&g.name);
        }
        recent.append_value(g.recent_json());
        let values = [pos.key(), g.games, g.wins, g.draws, g.losses, g.unscored];
        for (c, v) in self.counts.iter_mut().zip(values) {
            c.append_value(v);
        }
        self.years[0].append_option(g.first_year);
        self.years[1].append_option(g.last_year);
        self.rows += 1;
        if self.rows >= BATCH_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), String> {
        if self.rows == 0 {
            return Ok(());
        }
        let [variant, position, mv, recent] = &mut self.strings;
        let [key, games, white, draws, black, unfinished] = &mut self.counts;
        let [first, last] = &mut self.years;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(variant.finish()),
            Arc::new(key.finish()),
            Arc::new(position.finish()),
            Arc::new(mv.finish()),
            Arc::new(games.finish()),
            Arc::new(white.finish()),
            Arc::new(draws.finish()),
            Arc::new(black.finish()),
            Arc::new(unfinished.finish()),
            Arc::new(first.finish()),
            Arc::new(last.finish()),
            Arc::new(recent.finish()),
        ];
        let batch =
            RecordBatch::try_new(Arc::clone(&self.schema), columns).map_err(|e| e.to_string())?;
        self.writer.write(&batch).map_err(|e| e.to_string())?;
        self.rows = 0;
        Ok(())
    }

    /// Writes what is left and puts the file in place when `complete`.
    pub fn finish(mut self, complete: bool) -> Result<(), String> {
        self.flush()?;
        let out = self.writer.into_inner().map_err(|e| e.to_string())?;
        out.finish_io(complete).map_err(|e| e.to_string())
    }
}

/// An index opened for reading.
pub struct IndexFile {
    path: std::path::PathBuf,
    pub header: Header,
}

fn open_builder(path: &Path) -> Result<ParquetRecordBatchReaderBuilder<std::fs::File>, String> {
    let name = || crate::render::path(path);
    // A FIFO or a device would block or never end: an index is a file.
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => return Err(format!("{}: not a regular file", name())),
        Err(e) => return Err(format!("{}: {e}", name())),
        Ok(_) => {}
    }
    let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", name()))?;
    ParquetRecordBatchReaderBuilder::try_new(f)
        .map_err(|e| format!("{}: not a Parquet file ({e})", crate::render::path(path)))
}

impl IndexFile {
    /// Opens the index at `path`: an error for a file that is not one.
    pub fn open(path: &Path) -> Result<IndexFile, String> {
        let builder = open_builder(path)?;
        let not_index = || {
            format!(
                "{}: not a pdnkit index (made by `pdnkit index`)",
                crate::render::path(path)
            )
        };
        let meta = builder
            .metadata()
            .file_metadata()
            .key_value_metadata()
            .and_then(|kv| kv.iter().find(|k| k.key == META_KEY))
            .and_then(|k| k.value.clone())
            .ok_or_else(not_index)?;
        let meta: serde_json::Value = serde_json::from_str(&meta).map_err(|_| not_index())?;
        let fields: Vec<&str> = builder
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect();
        let want = schema();
        let wanted: Vec<&str> = want.fields().iter().map(|f| f.name().as_str()).collect();
        if meta["version"] != 1 || fields != wanted {
            return Err(not_index());
        }
        let variants = meta["variants"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str()?.parse::<Variant>().ok())
                    .collect()
            })
            .unwrap_or_default();
        Ok(IndexFile {
            path: path.to_path_buf(),
            header: Header {
                plies: meta["plies"].as_u64().unwrap_or(0) as u32,
                variants,
            },
        })
    }

    /// The rows of the positions `wanted`, each with its position.
    pub fn rows(&self, wanted: &[Position]) -> Result<Vec<(Position, Group)>, String> {
        let keys: HashSet<(&str, u64)> = wanted
            .iter()
            .map(|p| (p.variant().name(), p.key()))
            .collect();
        let reader = open_builder(&self.path)?
            .build()
            .map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        for batch in reader {
            let batch = batch.map_err(|e| format!("{}: {e}", crate::render::path(&self.path)))?;
            rows_of(&batch, &keys, wanted, &mut out)?;
        }
        Ok(out)
    }
}

/// The rows of `batch` whose position is one of `keys`.
fn rows_of(
    batch: &RecordBatch,
    keys: &HashSet<(&str, u64)>,
    wanted: &[Position],
    out: &mut Vec<(Position, Group)>,
) -> Result<(), String> {
    let bad = || "the index's columns are not those `pdnkit index` writes".to_string();
    let s = |i: usize| {
        batch
            .column(i)
            .as_any()
            .downcast_ref::<StringArray>()
            .ok_or_else(bad)
    };
    let u = |i: usize| {
        batch
            .column(i)
            .as_any()
            .downcast_ref::<UInt64Array>()
            .ok_or_else(bad)
    };
    let y = |i: usize| {
        batch
            .column(i)
            .as_any()
            .downcast_ref::<UInt32Array>()
            .ok_or_else(bad)
    };
    let (variant, key, mv, recent) = (s(0)?, u(1)?, s(3)?, s(11)?);
    let (games, white, draws, black, unfinished) = (u(4)?, u(5)?, u(6)?, u(7)?, u(8)?);
    let (first, last) = (y(9)?, y(10)?);
    for r in 0..batch.num_rows() {
        if !keys.contains(&(variant.value(r), key.value(r))) {
            continue;
        }
        let Some(pos) = wanted
            .iter()
            .find(|p| p.key() == key.value(r) && p.variant().name() == variant.value(r))
        else {
            continue;
        };
        let year = |a: &UInt32Array| (!a.is_null(r)).then(|| a.value(r));
        let mut g = Group {
            name: if mv.is_null(r) {
                String::new()
            } else {
                mv.value(r).to_string()
            },
            games: games.value(r),
            wins: white.value(r),
            draws: draws.value(r),
            losses: black.value(r),
            unscored: unfinished.value(r),
            first_year: year(first),
            last_year: year(last),
            ..Group::default()
        };
        g.set_recent_json(recent.value(r)).map_err(|_| bad())?;
        out.push((*pos, g));
    }
    Ok(())
}
