//! `pdnkit openings [--table NAME]`: the shipped opening tables, or one of
//! them as CSV (docs/openings.md).

use pdnkit::openings::Opening;

#[derive(clap::Args)]
pub struct Args {
    /// Write this table as CSV (`# key: value` lines, then code, name,
    /// variants, start_fen, moves, fen, aliases), to start a table of one's
    /// own from.
    #[arg(long, value_name = "NAME")]
    table: Option<String>,
}

pub fn run(a: Args) -> u8 {
    let text = match &a.table {
        None => list(),
        Some(name) => match table(name) {
            Ok(t) => t,
            Err(why) => return crate::exit::fail(why),
        },
    };
    crate::output::print_answer(&text)
}

/// A line per table: name, rows, variants, title, source.
fn list() -> String {
    let tables = Opening::tables();
    let w = tables.iter().map(|t| t[0].len()).max().unwrap_or(5);
    let mut out = format!(
        "{:<w$} {:>5}  {:<20} title; source\n",
        "table", "rows", "variants"
    );
    for [name, title, variants, rows, source] in tables {
        out.push_str(&format!(
            "{name:<w$} {rows:>5}  {variants:<20} {title}; {source}\n"
        ));
    }
    out
}

/// One table as CSV.
fn table(name: &str) -> Result<String, String> {
    let Some((head, rows)) = Opening::table_rows(name) else {
        let names: Vec<String> = Opening::tables()
            .into_iter()
            .map(|t| t[0].clone())
            .collect();
        return Err(format!(
            "--table: '{name}' is no opening table (tables: {})",
            names.join(", ")
        ));
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    let columns = [
        "code",
        "name",
        "variants",
        "start_fen",
        "moves",
        "fen",
        "aliases",
    ];
    crate::render::safe_record(&mut w, columns)
        .and_then(|()| {
            rows.iter()
                .try_for_each(|r| crate::render::safe_record(&mut w, r))
        })
        .map_err(|e| e.to_string())?;
    let body = w.into_inner().map_err(|e| e.to_string())?;
    let mut out = head.join("\n");
    out.push('\n');
    out.push_str(&String::from_utf8_lossy(&body));
    Ok(out)
}
