//! The HTML report in a real browser: headless Chromium driven through
//! WebDriver (chromedriver), with a small WebDriver client over HTTP here.
//! `.ci/run` installs Debian's `chromium` and `chromium-driver`; under
//! `CI=true` a missing browser is a failure, elsewhere the test says SKIP.
//! With `PDNKIT_SCREENSHOTS=DIR` it also saves screenshots of the report and
//! of a diagram there (the README's pictures in docs/img/ come from it).
mod common;

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const DRIVER: &str = "/usr/bin/chromedriver";

struct Driver {
    child: Child,
    port: u16,
    session: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = http(
            self.port,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request to chromedriver on loopback; the JSON answer.
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
    // Read the header, then exactly the body it announces (the driver may
    // keep the connection open).
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    let head_end = loop {
        if let Some(p) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break p + 4;
        }
        let n = s.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("connection closed before the header".into());
        }
        raw.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..head_end]).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    let chunked = head.contains("transfer-encoding: chunked");
    loop {
        let have = raw.len() - head_end;
        let done = match length {
            Some(n) => have >= n,
            None => chunked && raw.ends_with(b"0\r\n\r\n"),
        };
        if done {
            break;
        }
        let n = s.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
    }
    let rest = String::from_utf8_lossy(&raw[head_end..]).into_owned();
    let body = if chunked { dechunk(&rest) } else { rest };
    serde_json::from_str(&body).map_err(|e| format!("{e}: {body}"))
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((len, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(len.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

impl Driver {
    fn start() -> Option<Driver> {
        let missing: Vec<&str> = [CHROMIUM, DRIVER]
            .into_iter()
            .filter(|p| !Path::new(p).exists())
            .collect();
        if !missing.is_empty() {
            let why = format!(
                "{} not installed (Debian packages chromium, chromium-driver)",
                missing.join(", ")
            );
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("{why}: the browser test cannot be skipped under CI=true");
            }
            let _ = writeln!(std::io::stderr(), "SKIP: {why}");
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let child = Command::new(DRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let t0 = Instant::now();
        while http(port, "GET", "/status", None)
            .map(|v| v["value"]["ready"] != true)
            .unwrap_or(true)
        {
            assert!(
                t0.elapsed() < Duration::from_secs(30),
                "chromedriver did not get ready"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = common::tempdir("chromium-profile");
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1280,1600",
                format!("--user-data-dir={}", profile.display())
            ]},
            "goog:loggingPrefs": {"browser": "ALL"}
        }}});
        let mut driver = Driver {
            child,
            port,
            session: String::new(),
        };
        let v = http(port, "POST", "/session", Some(&caps)).expect("a session");
        driver.session = v["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_string();
        Some(driver)
    }
    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let v = http(
            self.port,
            method,
            &format!("/session/{}{path}", self.session),
            body.as_ref(),
        )
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        assert!(v["value"].get("error").is_none(), "{method} {path}: {v}");
        v["value"].clone()
    }
    fn go(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }
    fn js(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }
    /// The WebDriver id of the first element `css` selects.
    fn element(&self, css: &str) -> String {
        let e = self.cmd(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        e.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string()
    }
    fn click(&self, css: &str) {
        let id = self.element(css);
        self.cmd("POST", &format!("/element/{id}/click"), Some(json!({})));
    }
    fn element_screenshot(&self, css: &str, to: &Path) {
        let id = self.element(css);
        let b64 = self.cmd("GET", &format!("/element/{id}/screenshot"), None);
        std::fs::write(to, base64(b64.as_str().unwrap_or(""))).expect("screenshot written");
    }
    fn screenshot(&self, to: &Path) {
        let b64 = self.cmd("GET", "/screenshot", None);
        let bytes = base64(b64.as_str().unwrap_or(""));
        std::fs::write(to, bytes).expect("screenshot written");
    }
}

fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for v in s.bytes().filter_map(val) {
        acc = acc << 6 | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

fn pdnkit_in_root(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pdnkit"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("pdnkit runs")
}

/// Pieces of a FEN as `square:code` strings, sorted.
fn fen_pieces(fen: &str) -> Vec<String> {
    let mut out = Vec::new();
    for field in fen.split(':').skip(1) {
        let (color, list) = field.split_at(1);
        for item in list
            .trim_end_matches('.')
            .split(',')
            .filter(|s| !s.is_empty())
        {
            let (king, sq) = match item.strip_prefix('K') {
                Some(s) => ("K", s),
                None => ("", item),
            };
            out.push(format!("{sq}:{color}{king}"));
        }
    }
    out.sort();
    out
}

#[test]
fn the_report_works_in_a_real_browser() {
    let Some(driver) = Driver::start() else {
        return;
    };
    let dir = common::tempdir("browser");
    let report = dir.join("report.html");
    let o = pdnkit_in_root(&[
        "report",
        "--no-progress",
        "corpus/",
        "-o",
        report.to_str().unwrap(),
    ]);
    assert!(report.exists(), "{}", String::from_utf8_lossy(&o.stderr));
    driver.go(&format!("file://{}", report.display()));
    // The script ran to its end, with no error.
    assert_eq!(driver.js("return document.body.dataset.ready"), "yes");
    assert_eq!(driver.js("return window.__pdnkitErrors"), json!([]));
    if let Ok(log) = http(
        driver.port,
        "POST",
        &format!("/session/{}/se/log", driver.session),
        Some(&json!({"type": "browser"})),
    ) {
        if let Some(entries) = log["value"].as_array() {
            let severe: Vec<&Value> = entries.iter().filter(|e| e["level"] == "SEVERE").collect();
            assert!(severe.is_empty(), "console errors: {severe:?}");
        }
    }
    // The summary says what `check --format json` says.
    let check = common::json_lines(&pdnkit_in_root(&[
        "check",
        "--no-progress",
        "--format",
        "json",
        "corpus/",
    ]));
    let summary = check.last().unwrap();
    for (id, key) in [
        ("files", "files"),
        ("games", "games"),
        ("valid", "valid_games"),
        ("unchecked", "unchecked_games"),
        ("errors", "errors"),
        ("warnings", "warnings"),
        ("notes", "notes"),
    ] {
        let shown = driver.js(&format!(
            "return document.getElementById('sum-{id}').textContent"
        ));
        assert_eq!(shown.as_str().unwrap(), summary[key].to_string(), "{id}");
    }
    // One diagram per move finding.
    let games: Vec<&Value> = check.iter().filter(|v| v["type"] == "game").collect();
    let move_findings: usize = games
        .iter()
        .map(|g| {
            g["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d.get("ply").is_some())
                .count()
        })
        .sum();
    assert!(move_findings > 0);
    assert_eq!(
        driver.js("return document.querySelectorAll('.finding-diagram svg').length"),
        json!(move_findings)
    );
    // "Next" in a viewer shows the position after that ply, as convert gives it.
    let plies = common::json_lines(&pdnkit_in_root(&[
        "convert",
        "--no-progress",
        "--to",
        "jsonl",
        "--moves",
        "--fen",
        "corpus/",
    ]));
    let (i, g) = games
        .iter()
        .enumerate()
        .find(|(_, g)| {
            g["plies"].as_u64() >= Some(3) && g["file"].as_str().unwrap().contains("english")
        })
        .expect("an English game with moves");
    let viewer = format!("#game-{i}");
    let pieces = |d: &Driver| -> Vec<String> {
        let v = d.js(&format!(
            "return Array.from(document.querySelectorAll('{viewer} .board .piece')).map(p => p.dataset.square + ':' + p.dataset.piece)"
        ));
        let mut v: Vec<String> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        v.sort();
        v
    };
    for ply in 1..=3u64 {
        driver.click(&format!("{viewer} .next"));
        let want = plies
            .iter()
            .find(|r| r["file"] == g["file"] && r["game"] == g["game"] && r["ply"] == ply)
            .and_then(|r| r["fen"].as_str())
            .expect("the ply in convert's output");
        assert_eq!(pieces(&driver), fen_pieces(want), "after ply {ply}");
    }
    // An Italian viewer draws the mirrored board: square 1 in the top-left
    // corner, 32 in the bottom-right (RULES.md 7), every piece where the
    // FID numbering puts it, and the dark squares where h1 is dark.
    let (i, _) = games
        .iter()
        .enumerate()
        .find(|(_, g)| g["variant"] == "italian" && g["plies"].as_u64() >= Some(1))
        .expect("an Italian game with moves");
    let placed = driver.js(&format!(
        "return Array.from(document.querySelectorAll('#game-{i} .board .piece')).map(p => {{ var c = p.querySelector('circle'); return [+p.dataset.square, +c.getAttribute('cx'), +c.getAttribute('cy')]; }})"
    ));
    let placed = placed.as_array().unwrap();
    assert!(!placed.is_empty());
    for p in placed {
        let (s, cx, cy) = (
            p[0].as_u64().unwrap(),
            p[1].as_u64().unwrap(),
            p[2].as_u64().unwrap(),
        );
        let r = (s - 1) / 4;
        let f = 2 * ((s - 1) % 4) + r % 2;
        assert_eq!((cx, cy), (18 + f * 40 + 20, 18 + r * 40 + 20), "square {s}");
    }
    let dark = driver.js(&format!(
        "return document.querySelector('#game-{i} .board path').getAttribute('d').split('M')[1]"
    ));
    assert_eq!(
        dark,
        json!("18 18h40v40h-40z"),
        "a8 is dark on the Italian board"
    );
    // "Only games with errors" hides every valid game.
    driver.click("#only-errors");
    let leaks = driver.js(
        "return Array.from(document.querySelectorAll('#games tbody tr')).filter(r => r.dataset.valid !== 'false' && getComputedStyle(r).display !== 'none').length",
    );
    assert_eq!(leaks, json!(0));
    let shown = driver.js("return Array.from(document.querySelectorAll('#games tbody tr')).filter(r => getComputedStyle(r).display !== 'none').length");
    let invalid = games.iter().filter(|g| g["valid"] == false).count();
    assert_eq!(shown, json!(invalid));
    // Screenshots for the README, when asked for.
    if let Ok(to) = std::env::var("PDNKIT_SCREENSHOTS") {
        let to = PathBuf::from(to);
        std::fs::create_dir_all(&to).unwrap();
        driver.click("#only-errors");
        driver.js("window.scrollTo(0, 0); return 0");
        driver.screenshot(&to.join("report.png"));
        driver.element_screenshot(".finding", &to.join("finding.png"));
        driver.element_screenshot(&viewer, &to.join("viewer.png"));
        let svg = dir.join("diagram.svg");
        pdnkit_in_root(&[
            "diagram",
            "corpus/brazilian/faults.pdn",
            "--game",
            "1",
            "--ply",
            "8",
            "--move",
            "c5xe3",
            "-o",
            svg.to_str().unwrap(),
        ]);
        driver.go(&format!("file://{}", svg.display()));
        driver.element_screenshot("svg", &to.join("diagram.png"));
    }
}
