//! `pdnkit openings [--table NAME|FILE]`: the shipped opening tables and
//! what each is used for, or one table (a shipped one, or a user's file as
//! it is read) as CSV (docs/openings.md).

use pdnkit::openings::Opening;

#[derive(clap::Args)]
pub struct Args {
    /// Write this table as CSV (`# key: value` lines, then code, name,
    /// variants, start_fen, moves, fen, aliases), to start a table of one's
    /// own from; a user's FILE is written as it is read, each row with the
    /// variants it serves (its warnings on standard error).
    #[arg(long, value_name = "NAME|FILE")]
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

/// A line per table: name, rows, variants, title, source; then what it is
/// used for (issue 62 item 10: a names table of a variant with no ballot
/// table names no game unless chosen).
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
        out.push_str(&format!(
            "{:<w$}        {}\n",
            "",
            Opening::table_role(&name)
        ));
    }
    out
}

/// One table as CSV.
fn table(name: &str) -> Result<String, String> {
    let spec: pdnkit::openings::TableSpec = name.parse().map_err(|e| format!("--table: {e}"))?;
    let Some((table, warnings)) = spec.open().map_err(|e| format!("--table: {e}"))? else {
        return Err("--table: none is no table".into());
    };
    for w in warnings {
        eprintln!("pdnkit: warning: {w}");
    }
    let (head, rows) = table.text_rows();
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
