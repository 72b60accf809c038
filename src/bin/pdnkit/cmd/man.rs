//! `pdnkit man`: the manual. The main page holds every subcommand with its
//! options, the exit status, the diagnostic codes and examples; `--dir DIR`
//! also writes one page per subcommand (`pdnkit-check.1`, ...).

use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// Write pdnkit.1 and one page per subcommand (pdnkit-check.1, ...) into
    /// DIR instead of printing the main page.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Escapes text for roff: backslashes, and a leading `.` or `'`.
fn roff(text: &str) -> String {
    text.lines()
        .map(|l| {
            let l = l.replace('\\', "\\e").replace('-', "\\-");
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

const EXAMPLES: &str = "\
.SH EXAMPLES
.TP
.B pdnkit check archive/
check every .pdn, .pgn and .txt file under archive/
.TP
.B pdnkit check \\-e \\-q archive/
the error findings only, and the summary
.TP
.B pdnkit check \\-\\-variant russian \\-A notation,result\\-conflict games.pdn
read the games without GameType as Russian, without two kinds of warnings
.TP
.B pdnkit convert \\-\\-to csv \\-\\-moves \\-\\-fen games.pdn \\-o plies.csv
a row per ply, with the position after it
.TP
.B pdnkit convert \\-\\-to pdn \\-\\-fix\\-results \\-\\-in\\-place archive/
patch the wrong or missing results in place (NAME.bak keeps each original)
.TP
.B pdnkit report archive/ \\-o report.html
one HTML page with every fault on a board
";

/// The diagnostic codes and their usual severity.
fn codes() -> String {
    let mut s = String::from(".SH \"DIAGNOSTIC CODES\"\nStable codes, named in every finding; \\-A, \\-W and \\-D take them, or the groups errors, warnings and notes.\n");
    for c in pdnkit::diag::Code::ALL {
        s.push_str(&format!(".TP\n.B {}\n{}\n", roff(c.as_str()), c.severity()));
    }
    s
}

/// A subcommand's page, rendered by clap_mangen.
fn page(cmd: clap::Command) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    Ok(out)
}

/// The main page: name, synopsis and description, then each subcommand's
/// synopsis and options, the exit status, the codes, examples and the
/// subcommand pages by name.
fn main_page(cmd: &clap::Command) -> std::io::Result<Vec<u8>> {
    let cmd = cmd.clone();
    let man = clap_mangen::Man::new(cmd.clone());
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    for sub in cmd.get_subcommands() {
        let name = sub.get_name();
        writeln!(out, ".SH \"PDNKIT {}\"", name.to_uppercase())?;
        if let Some(about) = sub.get_about() {
            writeln!(out, "{}", roff(&about.to_string()))?;
        }
        let full = sub.clone().name(format!("pdnkit {name}"));
        let m = clap_mangen::Man::new(full);
        let mut part = Vec::new();
        m.render_synopsis_section(&mut part)?;
        m.render_options_section(&mut part)?;
        let part = String::from_utf8_lossy(&part)
            .replace(".SH SYNOPSIS", ".SS Synopsis")
            .replace(".SH OPTIONS", ".SS Options");
        out.extend_from_slice(part.as_bytes());
    }
    out.extend_from_slice(crate::exit::man_section(roff).as_bytes());
    out.extend_from_slice(codes().as_bytes());
    out.extend_from_slice(EXAMPLES.as_bytes());
    let see: Vec<String> = cmd
        .get_subcommands()
        .map(|s| format!("\\fBpdnkit\\-{}\\fR(1)", roff(s.get_name())))
        .collect();
    writeln!(out, ".SH \"SEE ALSO\"\n{}", see.join(", "))?;
    man.render_version_section(&mut out)?;
    Ok(out)
}

/// Writes every page into `dir`.
fn write_pages(dir: &Path, cli: &clap::Command) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    // Each page as every other output is written (issue 54): a symbolic link
    // at its name is refused, never followed; a page is replaced whole.
    let mut put = |name: String, bytes: Vec<u8>| -> std::io::Result<()> {
        let p = dir.join(name);
        let mut page = crate::output::AtomicFile::create(&p, crate::output::Replace::Output)
            .map_err(|e| {
                std::io::Error::new(e.kind(), format!("{}: {e}", crate::render::path(&p)))
            })?;
        std::io::Write::write_all(&mut page, &bytes)?;
        page.commit()?;
        written.push(p);
        Ok(())
    };
    put("pdnkit.1".into(), main_page(cli)?)?;
    for sub in cli.get_subcommands() {
        let name = format!("pdnkit-{}", sub.get_name());
        let mut bytes = page(sub.clone().name(name.clone()))?;
        bytes.extend_from_slice(crate::exit::man_section(roff).as_bytes());
        put(format!("{name}.1"), bytes)?;
    }
    Ok(written)
}

/// `cli`: the whole command line (`main` hands it down: a subcommand
/// names no module above it).
pub fn run(a: Args, cli: clap::Command) -> u8 {
    match &a.dir {
        None => match main_page(&cli) {
            Ok(bytes) => crate::output::print_answer(&String::from_utf8_lossy(&bytes)),
            Err(e) => crate::exit::fail(format!("cannot render the manual: {e}")),
        },
        Some(dir) => match write_pages(dir, &cli) {
            Ok(pages) => {
                eprintln!(
                    "pdnkit: wrote {} manual pages into {}",
                    pages.len(),
                    crate::render::path(dir)
                );
                0
            }
            Err(e) => crate::exit::fail(format!("{}: {e}", crate::render::path(dir))),
        },
    }
}
