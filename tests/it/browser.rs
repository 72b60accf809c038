//! The HTML report in a real browser: headless Chromium driven through
//! WebDriver (chromedriver), with a small WebDriver client over HTTP here.
//! `.ci/run` installs Debian's `chromium` and `chromium-driver`; under
//! `CI=true` a missing browser is a failure, elsewhere the test says SKIP.
//! With `PDNKIT_SCREENSHOTS=DIR` it also saves screenshots of the report and
//! of a diagram there (the README's pictures in docs/img/ come from it).
use crate::common;

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const DRIVER: &str = "/usr/bin/chromedriver";

/// One browser at a time: the tests of this file share the machine's
/// memory and each would otherwise start its own Chromium at once.
static ONE_BROWSER: std::sync::Mutex<()> = std::sync::Mutex::new(());

struct Driver {
    _turn: std::sync::MutexGuard<'static, ()>,
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
    let mut s = loop {
        match TcpStream::connect(("127.0.0.1", port)) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => break r.map_err(|e| e.to_string())?,
        }
    };
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
        let n = read_some(&mut s, &mut buf)?;
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
        let n = read_some(&mut s, &mut buf)?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
    }
    let rest = String::from_utf8_lossy(&raw[head_end..]).into_owned();
    let body = if chunked { dechunk(&rest) } else { rest };
    serde_json::from_str(&body).map_err(|e| format!("{e}: {body}"))
}

/// One read, retried when a signal interrupts it (EINTR: a child process of
/// another test ending sends this process SIGCHLD).
fn read_some(s: &mut TcpStream, buf: &mut [u8]) -> Result<usize, String> {
    loop {
        match s.read(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => return r.map_err(|e| e.to_string()),
        }
    }
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
        let turn = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
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
        let profile = common::tempdir(&format!("chromium-profile-{port}"));
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
            _turn: turn,
            child,
            port,
            session: String::new(),
        };
        // Chromium may fail to start once on a loaded machine: three tries.
        let mut tries = 0;
        let v = loop {
            tries += 1;
            match http(port, "POST", "/session", Some(&caps)) {
                Ok(v) if v["value"]["sessionId"].is_string() || tries == 3 => break v,
                Err(e) if tries == 3 => panic!("a session: {e}"),
                _ => std::thread::sleep(Duration::from_secs(1)),
            }
        };
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
    /// Waits (up to 60 s) for the report's script to have run to its end:
    /// under load, the browser may answer before the page's script is done.
    fn wait_ready(&self) {
        let t0 = Instant::now();
        loop {
            let ready = self.js("return document.body && document.body.dataset.ready");
            if ready == "yes" {
                return;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(60),
                "the report's script did not finish: ready is {ready}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
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
    /// Types `text` into the element `css` selects, as a user types.
    fn send_keys(&self, css: &str, text: &str) {
        let id = self.element(css);
        self.cmd(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
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
    driver.wait_ready();
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
    // Every finding of a game is in the findings section, grouped by file and
    // code: the first few shown, the rest one click away; once every group is
    // expanded, one board per finding at a move (drawn as it scrolls into view,
    // or all at once before printing).
    let games: Vec<&Value> = check.iter().filter(|v| v["type"] == "game").collect();
    let all_findings: Vec<&Value> = games
        .iter()
        .flat_map(|g| g["diagnostics"].as_array().unwrap().iter())
        .collect();
    let move_findings = all_findings
        .iter()
        .filter(|d| d.get("ply").is_some())
        .count();
    assert!(move_findings > 0);
    let grouped = driver.js("return Array.from(document.querySelectorAll('#finding-groups .group')).reduce((n, g) => n + +g.dataset.count, 0)");
    assert_eq!(grouped, json!(all_findings.len()));
    driver.js("window.pdnkit.expandAll(); window.pdnkit.drawAll(); return 0");
    assert_eq!(
        driver.js("return document.querySelectorAll('#finding-groups .finding').length"),
        json!(all_findings.len())
    );
    assert_eq!(
        driver.js("return document.querySelectorAll('.finding-diagram svg').length"),
        json!(move_findings)
    );
    // A board of a missed capture draws the written move and the capture required.
    let missed = driver.js("var f = document.querySelector('.finding[data-code=missed-capture] .finding-diagram svg'); return f ? Array.from(f.querySelectorAll('.move')).map(m => m.dataset.move) : null");
    assert_eq!(missed, json!(["written", "alternative"]));
    // "Next" in the viewer shows the position after that ply, as convert gives it.
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
    driver.js(&format!("location.hash = '#game-{i}'; return 0"));
    assert_eq!(
        driver.js("return document.getElementById('viewer').dataset.game"),
        json!(i.to_string())
    );
    let pieces = |d: &Driver| -> Vec<String> {
        let v = d.js(
            "return Array.from(document.querySelectorAll('#viewer .board .piece')).map(p => p.dataset.square + ':' + p.dataset.piece)",
        );
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
        driver.click("#viewer .next");
        let want = plies
            .iter()
            .find(|r| r["file"] == g["file"] && r["game"] == g["game"] && r["ply"] == ply)
            .and_then(|r| r["fen"].as_str())
            .expect("the ply in convert's output");
        assert_eq!(pieces(&driver), fen_pieces(want), "after ply {ply}");
        assert_eq!(
            driver.js("return document.querySelector('#viewer .moves li.current').dataset.ply"),
            json!(ply.to_string())
        );
    }
    // The side to move is shown, and the numbers of the empty dark squares.
    assert_eq!(
        driver.js("return document.querySelector('#viewer .board svg').dataset.side"),
        json!("W")
    );
    let numbers = driver.js("return document.querySelectorAll('#viewer .board .number').length");
    let occupied = pieces(&driver).len() as u64;
    assert_eq!(numbers, json!(32 - occupied));
    // An Italian viewer draws the mirrored board: square 1 in the top-left
    // corner, 32 in the bottom-right (RULES.md 7), every piece where the
    // FID numbering puts it, and the dark squares where h1 is dark.
    let (i, _) = games
        .iter()
        .enumerate()
        .find(|(_, g)| g["variant"] == "italian" && g["plies"].as_u64() >= Some(1))
        .expect("an Italian game with moves");
    driver.js(&format!("window.pdnkit.openGame({i}); return 0"));
    let placed = driver.js(
        "return Array.from(document.querySelectorAll('#viewer .board .piece')).map(p => { var c = p.querySelector('circle'); return [+p.dataset.square, +c.getAttribute('cx'), +c.getAttribute('cy')]; })",
    );
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
    let dark = driver
        .js("return document.querySelector('#viewer .board path').getAttribute('d').split('M')[1]");
    assert_eq!(
        dark,
        json!("18 18h40v40h-40z"),
        "a8 is dark on the Italian board"
    );
    // "Only games with errors" keeps exactly the games with errors.
    driver.click("#only-errors");
    let leaks = driver.js(
        "return Array.from(document.querySelectorAll('#games tbody tr')).filter(r => r.dataset.valid !== 'false').length",
    );
    assert_eq!(leaks, json!(0));
    let invalid = games.iter().filter(|g| g["valid"] == false).count();
    assert_eq!(driver.js("return window.pdnkit.shown()"), json!(invalid));
    assert_eq!(
        driver.js("return document.querySelectorAll('#games tbody tr').length"),
        json!(invalid.min(100))
    );
    driver.click("#only-errors");
    // Issue 55: the first click on a row after typing in the search box
    // opens its game (the box's change on blur re-drew the rows under the
    // pointer, and the click fell on nothing).
    let white =
        driver.js("return window.pdnkit.data.games.map(g => g[3]).find(w => w && w.length > 3)");
    let word: String = white.as_str().unwrap_or("").chars().take(4).collect();
    assert_eq!(word.chars().count(), 4, "{white}");
    driver.send_keys("#text-filter", &word);
    // The box's `change` (on blur, as the pointer goes down on a row) must
    // leave the rows as they are.
    assert_eq!(
        driver.js("var tr = document.querySelector('#games tbody tr'); document.getElementById('text-filter').dispatchEvent(new Event('change')); return tr.isConnected"),
        json!(true),
        "the rows were re-drawn under the pointer"
    );
    driver.click("#games tbody tr:first-child td:nth-child(3)");
    assert_eq!(
        driver.js("return !document.getElementById('viewer').hidden"),
        json!(true),
        "a click after typing in the search box opens nothing"
    );
    driver.js("document.querySelector('#viewer .close').click(); var e = document.getElementById('text-filter'); e.value = ''; e.dispatchEvent(new Event('input')); return 0");
    // Sorting by a column orders every page by it.
    driver.click("#games th[data-col=white]");
    let whites = driver.js("return Array.from(document.querySelectorAll('#games tbody tr td:nth-child(3)')).map(td => td.textContent)");
    let whites: Vec<String> = serde_json::from_value(whites).unwrap();
    let mut sorted = whites.clone();
    sorted.sort();
    assert_eq!(whites, sorted);
    // The opening column: filtering by a ballot's code keeps the games that
    // reach it, and the viewer names it.
    driver.js("var e = document.getElementById('text-filter'); e.value = 'idf-745 I-12'; e.dispatchEvent(new Event('input')); return 0");
    let openings = driver.js("return Array.from(document.querySelectorAll('#games tbody tr td.opening')).map(td => td.textContent)");
    let openings: Vec<String> = serde_json::from_value(openings).unwrap();
    assert!(!openings.is_empty(), "no game shows idf-745 I-12");
    assert!(
        openings.iter().all(|o| o.starts_with("idf-745 I-12")),
        "{openings:?}"
    );
    driver.click("#games tbody tr:first-child td:nth-child(3)");
    // The viewer opens on the hash's change, after the click returns.
    let mut shown = Value::Null;
    for _ in 0..50 {
        shown = driver.js("return document.querySelector('#viewer .result').textContent");
        if shown
            .as_str()
            .unwrap_or("")
            .contains("opening idf-745 I-12")
        {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        shown
            .as_str()
            .unwrap_or("")
            .contains("opening idf-745 I-12"),
        "{shown}"
    );
    driver.js("document.querySelector('#viewer .close').click(); var e = document.getElementById('text-filter'); e.value = ''; e.dispatchEvent(new Event('input')); return 0");
    layout_holds(&driver, "corpus/");
    report_points(&driver, "corpus/");
    // Printed: every finding has its board, the findings of expanded
    // groups included, with no beforeprint event (the print media query
    // draws them), and no control is shown.
    driver.js("window.pdnkit.expandAll(); return 0");
    driver.cmd(
        "POST",
        "/goog/cdp/execute",
        Some(json!({"cmd": "Emulation.setEmulatedMedia", "params": {"media": "print"}})),
    );
    let printed = driver.js(
        "var shown = s => Array.from(document.querySelectorAll(s)).filter(e => e.getClientRects().length > 0).length; \
         return [shown('#viewer'), shown('.controls button'), shown('.filters'), shown('.more'), \
                 document.querySelectorAll('.finding-diagram').length === document.querySelectorAll('.finding-diagram svg').length]",
    );
    assert_eq!(printed, json!([0, 0, 0, 0, true]), "print");
    let boards = driver.js("return document.querySelectorAll('.finding-diagram svg').length");
    assert!(boards.as_u64() > Some(3), "{boards} boards printed");
    driver.cmd(
        "POST",
        "/goog/cdp/execute",
        Some(json!({"cmd": "Emulation.setEmulatedMedia", "params": {"media": ""}})),
    );
    // Screenshots for the README, when asked for.
    if let Ok(to) = std::env::var("PDNKIT_SCREENSHOTS") {
        let to = PathBuf::from(to);
        std::fs::create_dir_all(&to).unwrap();
        driver.click("#only-errors");
        driver.js("window.scrollTo(0, 0); return 0");
        driver.screenshot(&to.join("report.png"));
        driver.element_screenshot(".finding", &to.join("finding.png"));
        driver.js("window.pdnkit.openGame(0, 4, true); return 0");
        driver.element_screenshot("#viewer", &to.join("viewer.png"));
        for width in [1400, 800] {
            driver.cmd(
                "POST",
                "/window/rect",
                Some(json!({"width": width, "height": 900})),
            );
            // At 1,400 px with the viewer of a game with errors beside the
            // table; at 800 px the table alone, in its scroll container.
            driver.js(&format!("document.getElementById('games-section').scrollIntoView(); var D = window.pdnkit.data, gi = D.games.findIndex(g => g[10] === 0); window.pdnkit.openGame(gi < 0 ? 0 : gi, 0, false); if ({width} < 1000) document.querySelector('#viewer .close').click(); return 0"));
            driver.screenshot(&to.join(format!("report-{width}.png")));
        }
        let svg = dir.join("diagram.svg");
        pdnkit_in_root(&[
            "diagram",
            "corpus/brazilian/faults.pdn",
            "--game",
            "1",
            "--ply",
            "8",
            "-o",
            svg.to_str().unwrap(),
        ]);
        driver.go(&format!("file://{}", svg.display()));
        driver.element_screenshot("svg", &to.join("diagram.png"));
    }
}

/// Issue 44's points, at 1,400 and 800 px: findings by severity then count;
/// file findings errors first; the games table's headers fit or wrap (none
/// cut) at 1,400 px, and at 800 px every column is reachable in its scroll
/// container with no dead space; a row clicked opens the viewer beside the
/// table without moving the page, with the game's findings listed and each
/// marked on its move.
fn report_points(d: &Driver, what: &str) {
    let codes = d.js(
        "return Array.from(document.querySelectorAll('#codes tbody tr')).map(tr => Array.from(tr.cells).slice(1).map(td => +td.textContent || 0))",
    );
    let rows: Vec<Vec<u64>> = serde_json::from_value(codes).unwrap();
    let key = |r: &Vec<u64>| {
        let worst = r.iter().position(|&c| c > 0).unwrap_or(3);
        (worst, std::cmp::Reverse(r.get(worst).copied().unwrap_or(0)))
    };
    let keys: Vec<_> = rows.iter().map(key).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(
        keys, sorted,
        "{what}: findings by code, severity then count"
    );
    let file_sev = d.js(
        "return Array.from(document.querySelectorAll('#file-findings summary .sev')).map(e => ['error','warning','note'].indexOf(e.classList[1]))",
    );
    let file_sev: Vec<i64> = serde_json::from_value(file_sev).unwrap();
    let mut sorted = file_sev.clone();
    sorted.sort();
    assert_eq!(file_sev, sorted, "{what}: file findings, errors first");
    for width in [1400, 800] {
        d.cmd(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": 1000})),
        );
        d.js("window.pdnkit.openGame(0, 0, false); document.querySelector('#viewer .close').click(); return 0");
        let cut = d.js(
            "return Array.from(document.querySelectorAll('#games th')).filter(th => th.scrollWidth > th.clientWidth + 1).map(th => th.textContent)",
        );
        assert_eq!(cut, json!([]), "{what} at {width} px: headers cut");
        // Every column reachable: shown, and inside the scroll container
        // once scrolled to it; the table fills its container.
        let reach = d.js(
            "var wrap = document.querySelector('#games').closest('.table-wrap'), t = document.getElementById('games'), out = [];              Array.from(t.tHead.rows[0].cells).forEach(th => {                if (th.getClientRects().length === 0 || th.offsetWidth < 20) { out.push('hidden ' + th.textContent); return; }                wrap.scrollLeft = th.offsetLeft; var r = th.getBoundingClientRect(), w = wrap.getBoundingClientRect();                if (r.left < w.left - 1 || Math.min(r.right, w.right) - r.left < 20) out.push('unreachable ' + th.textContent); });              wrap.scrollLeft = 0;              if (t.offsetWidth + 2 < wrap.clientWidth) out.push('dead space ' + (wrap.clientWidth - t.offsetWidth));              return out",
        );
        assert_eq!(reach, json!([]), "{what} at {width} px: columns");
        // A row clicked: the page stays, the viewer shows beside it.
        let opened = d.js(
            "var sec = document.getElementById('games-section'); sec.scrollIntoView(); var y0 = window.scrollY;              var tr = document.querySelector('#games tbody tr'); tr.click();              return new Promise(done => setTimeout(() => { var v = document.getElementById('viewer'), r = v.getBoundingClientRect();                done([window.scrollY === y0, !v.hidden, r.top >= -1 && r.bottom <= window.innerHeight + 1 && r.left >= -1 && r.right <= window.innerWidth + 1,                      +v.dataset.game === +tr.dataset.game, tr.getBoundingClientRect().top >= 0]); }, 100))",
        );
        assert_eq!(
            opened,
            json!([true, true, true, true, true]),
            "{what} at {width} px: viewer"
        );
    }
    // The viewer of a game with findings at moves lists them and marks each
    // move.
    let marks = d.js(
        "var D = window.pdnkit.data, F = D.findings, count = {}; F.forEach(f => { if (f[3]) count[f[0]] = (count[f[0]] || 0) + 1; });          var gi = +Object.keys(count).sort((a, b) => count[b] - count[a])[0]; window.pdnkit.openGame(gi, 0, false);          var mine = F.filter(f => f[0] === gi), items = document.querySelectorAll('#viewer .game-findings li');          var unmarked = mine.filter(f => f[3]).filter(f => { var li = document.querySelector('#viewer .moves li[data-ply=\"' + f[3] + '\"]');            return !li || !/\\bf-(error|warning|note)\\b/.test(li.className); }).length;          var li = document.querySelector('#viewer .game-findings li[data-ply]'); li.click();          return [items.length === mine.length, mine.length > 0, unmarked, +document.getElementById('viewer').dataset.ply === +li.dataset.ply - 1]",
    );
    assert_eq!(
        marks,
        json!([true, true, 0, true]),
        "{what}: the viewer's findings"
    );
    d.js("document.querySelector('#viewer .close').click(); return 0");
    d.cmd(
        "POST",
        "/window/rect",
        Some(json!({"width": 1280, "height": 1600})),
    );
}

/// The report's layout holds at 1,400 and at 800 px (issue 23): no element
/// outside a scroll container wider than the viewport, and in the viewer of
/// game `game` (file name containing `file`; default the longest game) every
/// move visible in its list and none split across lines.
fn layout_holds(d: &Driver, what: &str) {
    layout_holds_on(d, what, None);
}

fn layout_holds_on(d: &Driver, what: &str, game: Option<(&str, u64)>) -> u64 {
    let open = match game {
        Some((file, index)) => format!(
            "var D = window.pdnkit.data, gi = D.games.findIndex(g => D.files[g[0]].indexOf({file:?}) >= 0 && g[1] === {index});"
        ),
        None => "var D = window.pdnkit.data, gi = 0; D.games.forEach((g, i) => { if (g[11] > D.games[gi][11]) gi = i; });".into(),
    };
    let mut moves = 0;
    for width in [1400, 800] {
        d.cmd(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": 1000})),
        );
        d.js(&format!(
            "{open} window.pdnkit.openGame(gi, 0, true); return gi"
        ));
        let wide = d.js(
            "var w = document.documentElement.clientWidth; \
             return [document.documentElement.scrollWidth - w].concat(Array.from(document.querySelectorAll('body *')) \
               .filter(e => !(e.parentElement && e.parentElement.closest('.table-wrap, pre.source')) && e.getBoundingClientRect().right > w + 1) \
               .slice(0, 5).map(e => e.tagName + '.' + e.getAttribute('class')))",
        );
        assert_eq!(
            wide,
            json!([0]),
            "{what} at {width} px: wider than the viewport"
        );
        let problems = d.js(
            "var list = document.querySelector('#viewer .moves'), out = [], items = Array.from(list.children); \
             var line = items.length ? items[0].getBoundingClientRect().height : 0; \
             items.forEach(li => { list.scrollTop = li.offsetTop; var r = li.getBoundingClientRect(), l = list.getBoundingClientRect(); \
               if (r.width < 8 || r.left < l.left - 1 || r.right > l.right + 1 || r.top < l.top - 1 || r.bottom > l.bottom + 1) out.push('hidden ' + li.textContent); \
               if (li.getClientRects().length !== 1 || r.height > line * 1.5) out.push('split ' + li.textContent); }); \
             return [items.length, out.slice(0, 5)]",
        );
        assert_eq!(problems[1], json!([]), "{what} at {width} px: moves");
        moves = problems[0].as_u64().unwrap_or(0);
        // The board and the move list fit the page side by side or one under the other.
        let board = d.js("var b = document.querySelector('#viewer .board svg').getBoundingClientRect(), l = document.querySelector('#viewer .moves').getBoundingClientRect(); return [b.width > 100, l.left >= b.right - 1 || l.top >= b.bottom - 1]");
        assert_eq!(
            board,
            json!([true, true]),
            "{what} at {width} px: board and moves"
        );
    }
    d.cmd(
        "POST",
        "/window/rect",
        Some(json!({"width": 1280, "height": 1600})),
    );
    moves
}

#[test]
fn the_report_of_the_real_corpus_opens_and_holds_its_layout() {
    let Some(real) = common::shared("corpus/real") else {
        return;
    };
    let Some(driver) = Driver::start() else {
        return;
    };
    let dir = common::tempdir("browser-real");
    let report = dir.join("real.html");
    let o = pdnkit_in_root(&[
        "report",
        "--no-progress",
        real.to_str().unwrap(),
        "-o",
        report.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let size = std::fs::metadata(&report).unwrap().len();
    assert!(size <= 5_000_000, "the report is {size} bytes");
    driver.go(&format!("file://{}", report.display()));
    driver.wait_ready();
    assert_eq!(driver.js("return window.__pdnkitErrors"), json!([]));
    // The 76 moves of this game were invisible in the report of issue 23.
    let moves = layout_holds_on(
        &driver,
        "the real corpus",
        Some(("bruno__BrunoVsScan31.pdn", 11)),
    );
    assert_eq!(moves, 76);
    layout_holds(&driver, "the real corpus");
    report_points(&driver, "the real corpus");
    // The 2,328 notation warnings of one file are one group, three shown.
    let group = driver.js("var g = Array.from(document.querySelectorAll('.group[data-code=notation]')).sort((a, b) => b.dataset.count - a.dataset.count)[0]; return [+g.dataset.count, g.querySelectorAll('.finding').length]");
    assert!(group[0].as_u64() > Some(1000), "{group}");
    assert_eq!(group[1], json!(3));
}

/// Loads a report in headless Chromium and measures it (issue 23's targets):
/// `PDNKIT_REPORT=FILE` (default: the report of ../shared/corpus/real, made
/// now). Not a timed test: it prints its figures and asserts nothing about
/// them. Run by `benches/report.sh`.
#[test]
#[ignore]
fn report_benchmark() {
    let Some(driver) = Driver::start() else {
        return;
    };
    let report = match std::env::var("PDNKIT_REPORT") {
        Ok(p) => PathBuf::from(p),
        Err(_) => {
            let Some(real) = common::shared("corpus/real") else {
                return;
            };
            let dir = common::tempdir("browser-bench");
            let report = dir.join("real.html");
            pdnkit_in_root(&[
                "report",
                "--no-progress",
                real.to_str().unwrap(),
                "-o",
                report.to_str().unwrap(),
            ]);
            std::mem::forget(dir);
            report
        }
    };
    let size = std::fs::metadata(&report).map(|m| m.len()).unwrap_or(0);
    let t0 = Instant::now();
    driver.go(&format!("file://{}", report.display()));
    let wall = t0.elapsed().as_millis();
    let nav = driver.js("var n = performance.getEntriesByType('navigation')[0]; var p = performance.getEntriesByName('first-contentful-paint')[0]; return [n.domContentLoadedEventEnd, n.loadEventEnd, p ? p.startTime : null]");
    let nodes = driver.js("return document.getElementsByTagName('*').length");
    let time = |script: &str| -> f64 {
        driver
            .js(&format!(
                "var t = performance.now(); {script}; document.body.getBoundingClientRect(); return performance.now() - t"
            ))
            .as_f64()
            .unwrap_or(f64::NAN)
    };
    // Each interaction as the user does it, its handler run synchronously.
    let new_page = driver.js("return !!window.pdnkit").as_bool() == Some(true);
    let (filter, unfilter, search, sort) = if new_page {
        (
            time("var e = document.getElementById('only-errors'); e.checked = true; e.dispatchEvent(new Event('change'))"),
            time("var e = document.getElementById('only-errors'); e.checked = false; e.dispatchEvent(new Event('change'))"),
            time("var e = document.getElementById('text-filter'); e.value = 'tinsley'; e.dispatchEvent(new Event('input'))"),
            time("document.querySelector('#games th[data-col=white]').click()"),
        )
    } else {
        (
            time("document.getElementById('only-errors').click()"),
            time("document.getElementById('only-errors').click()"),
            time("var e = document.getElementById('text-filter'); e.value = 'tinsley'; e.dispatchEvent(new Event('input'))"),
            time("document.querySelectorAll('#games th')[2].click()"),
        )
    };
    driver.cmd(
        "POST",
        "/goog/cdp/execute",
        Some(json!({"cmd": "Performance.enable", "params": {}})),
    );
    let metrics = driver.cmd(
        "POST",
        "/goog/cdp/execute",
        Some(json!({"cmd": "Performance.getMetrics", "params": {}})),
    );
    let metric = |name: &str| -> f64 {
        metrics["metrics"]
            .as_array()
            .and_then(|m| m.iter().find(|x| x["name"] == name))
            .and_then(|x| x["value"].as_f64())
            .unwrap_or(f64::NAN)
    };
    // The renderer processes' resident memory (Linux; only this test's browser runs).
    let renderer_mb: f64 = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            std::fs::read(e.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains("--type=renderer"))
        })
        .filter_map(|e| std::fs::read_to_string(e.path().join("status")).ok())
        .filter_map(|st| {
            st.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        })
        .sum::<f64>()
        / 1024.0;
    println!(
        "report {}: {:.1} MB; navigation returned after {wall} ms; DOMContentLoaded {} ms, load {} ms, first contentful paint {} ms; \
         only-errors {filter:.0} ms, back {unfilter:.0} ms, search {search:.0} ms, sort {sort:.0} ms; \
         JS heap {:.0} MB used / {:.0} MB total; renderer resident {renderer_mb:.0} MB; {} elements after loading (CDP, all nodes at the end: {})",
        report.display(),
        size as f64 / 1e6,
        nav[0],
        nav[1],
        nav[2],
        metric("JSHeapUsedSize") / 1e6,
        metric("JSHeapTotalSize") / 1e6,
        nodes,
        metric("Nodes"),
    );
}
