//! Colour: when to use it (`--color`, `NO_COLOR`, `CLICOLOR_FORCE`, `TERM`)
//! and the styles used, as anstyle values.

use anstyle::{AnsiColor, Style};
use pdnkit::diag::Severity;

/// `--color`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ColorChoice {
    /// Colour when writing to a terminal, unless NO_COLOR is set or TERM is dumb
    /// (CLICOLOR_FORCE forces it).
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour a stream that is (or is not) a terminal.
    pub fn enabled(self, terminal: bool) -> bool {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                if var("NO_COLOR").is_some() {
                    return false;
                }
                if var("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
                    return true;
                }
                terminal && var("TERM").is_none_or(|t| t != "dumb")
            }
        }
    }
}

/// The styles of human output (all plain when colour is off).
#[derive(Clone, Copy, Debug, Default)]
pub struct Palette {
    pub error: Style,
    pub warning: Style,
    pub note: Style,
    pub header: Style,
}

impl Palette {
    pub fn new(color: bool) -> Palette {
        if !color {
            return Palette::default();
        }
        let fg = |c: AnsiColor| Style::new().bold().fg_color(Some(c.into()));
        Palette {
            error: fg(AnsiColor::Red),
            warning: fg(AnsiColor::Yellow),
            note: fg(AnsiColor::Cyan),
            header: Style::new().bold(),
        }
    }
    pub fn severity(&self, s: Severity) -> Style {
        match s {
            Severity::Error => self.error,
            Severity::Warning => self.warning,
            Severity::Note => self.note,
        }
    }
}
