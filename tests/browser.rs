//! `show --format html` in a real browser: Debian's chromium, headless, driven over the
//! DevTools protocol by the small client below (a WebSocket from `tungstenite`, JSON
//! commands). The test opens pages, steps with the keyboard, checks the highlighted turn
//! and the picture in the page, clicks a turn, and saves screenshots to
//! `target/tmp/browser/`. Where chromium is not installed when the tests are built, the
//! test is built ignored, and `cargo test` reports it as such.

use crate::common;

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::run;
use serde_json::{json, Value};
use tungstenite::{Message, WebSocket};

/// How long any wait on chromium may take before the test fails (never hangs).
const TIMEOUT: Duration = Duration::from_secs(20);

/// `/usr/bin/chromium`, else `chromium` on the PATH.
fn chromium() -> Option<PathBuf> {
    let usual = PathBuf::from("/usr/bin/chromium");
    if usual.is_file() {
        return Some(usual);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("chromium"))
        .find(|p| p.is_file())
}

/// Where the pages and screenshots go: `target/tmp/browser/`.
fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes the page of a record; returns its file:// URL.
fn page_of(record: &str, name: &str) -> String {
    let (code, page, err) = run(&["show", record, "--format", "html"]);
    // An invalid record's page is written, and exits 1 as `check` would.
    assert!(code == 0 || code == 1, "{err}");
    let path = out_dir().join(format!("{name}.html"));
    std::fs::write(&path, page).unwrap();
    format!("file://{}", path.display())
}

/// A running chromium; killed (and waited for) when dropped, also when the test fails.
struct Chromium {
    child: Child,
    _profile: tempfile::TempDir,
}

impl Drop for Chromium {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts headless chromium on a fresh profile; returns it and its DevTools URL.
fn launch(exe: &Path) -> (Chromium, String) {
    let profile = tempfile::tempdir().unwrap();
    let child = Command::new(exe)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,960",
            "--remote-debugging-port=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", exe.display()));
    let mut chromium = Chromium {
        child,
        _profile: profile,
    };
    // stderr is read to its end on a thread (a full pipe would stall chromium); its
    // lines come here until the one that names the DevTools URL.
    let stderr = chromium.child.stderr.take().unwrap();
    let (lines, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    let deadline = Instant::now() + TIMEOUT;
    let mut seen = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match received.recv_timeout(left) {
            Ok(line) => match line.split_once("DevTools listening on ") {
                Some((_, url)) => return (chromium, url.trim().to_string()),
                None => seen.push(line),
            },
            Err(e) => panic!(
                "chromium gave no DevTools URL ({e}); its stderr:\n{}",
                seen.join("\n")
            ),
        }
    }
}

/// A DevTools connection to the browser, attached to one tab (flat sessions).
struct DevTools {
    socket: WebSocket<TcpStream>,
    next_id: u64,
    session: Option<String>,
    /// The tab's events read while waiting for a reply, in order.
    events: Vec<String>,
}

impl DevTools {
    fn connect(url: &str) -> DevTools {
        let address = url
            .strip_prefix("ws://")
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("not a ws:// URL: {url}"));
        let stream = TcpStream::connect(address).unwrap_or_else(|e| panic!("{address}: {e}"));
        stream.set_read_timeout(Some(TIMEOUT)).unwrap();
        stream.set_write_timeout(Some(TIMEOUT)).unwrap();
        let (socket, _) = tungstenite::client(url, stream).unwrap_or_else(|e| panic!("{url}: {e}"));
        DevTools {
            socket,
            next_id: 0,
            session: None,
            events: Vec::new(),
        }
    }

    /// The next message from chromium, as JSON; fails after `deadline`.
    fn receive(&mut self, deadline: Instant, waiting_for: &str) -> Value {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "no {waiting_for} within {TIMEOUT:?}");
            self.socket.get_ref().set_read_timeout(Some(left)).unwrap();
            match self.socket.read() {
                Ok(Message::Text(text)) => {
                    return serde_json::from_str(text.as_str())
                        .unwrap_or_else(|e| panic!("{waiting_for}: {e}: {text}"))
                }
                Ok(_) => {} // pings (answered by tungstenite), binary, close frames
                // A signal or the read timeout: the frame read so far stays buffered, so
                // reading again is safe; the deadline above ends the wait.
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::Interrupted
                            | std::io::ErrorKind::WouldBlock
                            | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => panic!("{waiting_for}: {e}"),
            }
        }
    }

    /// Sends a command (to the tab once attached) and returns its `result`; events read
    /// meanwhile are kept; an `error` reply fails the test.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut command = json!({"id": id, "method": method, "params": params});
        if let Some(session) = &self.session {
            command["sessionId"] = json!(session);
        }
        self.socket
            .send(Message::text(command.to_string()))
            .unwrap_or_else(|e| panic!("{method}: {e}"));
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let mut message = self.receive(deadline, method);
            if message["id"] == id {
                if let Some(error) = message.get("error") {
                    panic!("{method} {params}: {error}");
                }
                return message["result"].take();
            }
            if let Some(event) = message["method"].as_str() {
                if message["sessionId"].as_str() == self.session.as_deref() {
                    self.events.push(event.to_string());
                }
            }
        }
    }

    /// Waits for an event of the tab (one already read counts), and takes it.
    fn wait_for_event(&mut self, name: &str) {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(i) = self.events.iter().position(|e| e == name) {
                self.events.drain(..=i);
                return;
            }
            let message = self.receive(deadline, name);
            if let Some(event) = message["method"].as_str() {
                if message["sessionId"].as_str() == self.session.as_deref() {
                    self.events.push(event.to_string());
                }
            }
        }
    }

    /// Opens a new tab and attaches to it; later commands go to it.
    fn open_tab(&mut self) {
        let target = self.call("Target.createTarget", json!({"url": "about:blank"}));
        let target_id = target["targetId"].clone();
        let attached = self.call(
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
        );
        let session = attached["sessionId"].as_str().expect("a session id");
        self.session = Some(session.to_string());
        self.call("Page.enable", json!({}));
    }

    /// Loads `url`, waits for its load event and for `selector` to be in the page.
    fn navigate(&mut self, url: &str, selector: &str) {
        self.events.clear();
        let reply = self.call("Page.navigate", json!({"url": url}));
        if let Some(error) = reply.get("errorText") {
            panic!("{url}: {error}");
        }
        self.wait_for_event("Page.loadEventFired");
        let present = format!("document.querySelector({}) !== null", json!(selector));
        let deadline = Instant::now() + TIMEOUT;
        while self.eval(&present) != json!(true) {
            assert!(
                Instant::now() < deadline,
                "no {selector} within {TIMEOUT:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The value of a JavaScript expression in the page (`null` if it has none); an
    /// exception fails the test.
    fn eval(&mut self, js: &str) -> Value {
        let mut reply = self.call(
            "Runtime.evaluate",
            json!({"expression": js, "returnByValue": true}),
        );
        if let Some(exception) = reply.get("exceptionDetails") {
            panic!("{js}: {exception}");
        }
        reply["result"]["value"].take()
    }

    /// Presses and releases a key (ArrowRight, ArrowLeft, Home, End), `times` times.
    fn press(&mut self, key: &str, times: usize) {
        let code = match key {
            "End" => 35,
            "Home" => 36,
            "ArrowLeft" => 37,
            "ArrowRight" => 39,
            _ => panic!("no key code for {key}"),
        };
        for _ in 0..times {
            for kind in ["rawKeyDown", "keyUp"] {
                self.call(
                    "Input.dispatchKeyEvent",
                    json!({"type": kind, "key": key, "code": key,
                           "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}),
                );
            }
        }
    }

    /// Clicks the middle of the element `selector` (scrolled into view) with the mouse.
    fn click(&mut self, selector: &str) {
        let js = format!(
            "(function(){{var e=document.querySelector({});if(!e)return null;\
             e.scrollIntoView({{block:'center',inline:'center',behavior:'instant'}});\
             var r=e.getBoundingClientRect();return [r.left+r.width/2,r.top+r.height/2];}})()",
            json!(selector)
        );
        let point = self.eval(&js);
        let (x, y) = match (point[0].as_f64(), point[1].as_f64()) {
            (Some(x), Some(y)) => (x, y),
            _ => panic!("no {selector} to click"),
        };
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            let mut event = json!({"type": kind, "x": x, "y": y});
            if kind != "mouseMoved" {
                event["button"] = json!("left");
                event["clickCount"] = json!(1);
            }
            self.call("Input.dispatchMouseEvent", event);
        }
    }

    /// Saves a PNG screenshot of the tab as `target/tmp/browser/NAME.png`.
    fn screenshot(&mut self, name: &str) -> PathBuf {
        let reply = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "fromSurface": true}),
        );
        let png = base64_decode(reply["data"].as_str().expect("screenshot data"));
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        let path = out_dir().join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap();
        println!("screenshot: {}", path.display());
        path
    }
}

/// Standard base64 (with `=` padding), as DevTools sends binary data.
fn base64_decode(text: &str) -> Vec<u8> {
    fn sextet(c: u8) -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {:?}", char::from(c)),
        }
    }
    let text = text.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.chunks(4) {
        let bits = chunk
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &c)| acc | sextet(c) << (18 - 6 * i));
        out.extend_from_slice(&bits.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// The step the highlighted item of the turn list stands for.
fn highlighted(tab: &mut DevTools) -> String {
    let v = tab.eval(
        "(function(){var li=document.querySelectorAll('#turns li.current');\
         return li.length===1 ? li[0].getAttribute('data-step') : 'highlighted: '+li.length;})()",
    );
    v.as_str().unwrap_or_default().to_string()
}

fn caption(tab: &mut DevTools) -> String {
    let v = tab.eval("document.getElementById('caption').textContent");
    v.as_str().unwrap_or_default().to_string()
}

#[test]
fn base64_decodes_padded_and_unpadded_tails() {
    assert_eq!(base64_decode("TWFu"), b"Man");
    assert_eq!(base64_decode("TWE="), b"Ma");
    assert_eq!(base64_decode("TQ=="), b"M");
    assert_eq!(base64_decode(""), b"");
    assert_eq!(base64_decode("iVBORw0KGgo="), b"\x89PNG\r\n\x1a\n");
    assert_eq!(base64_decode("/+8="), [0xff, 0xef]);
}

#[test]
#[cfg_attr(
    chromium_missing,
    ignore = "chromium is not installed (apt-get install chromium); .ci/run installs it"
)]
fn html_pages_step_in_chromium() {
    let Some(exe) = chromium() else {
        println!("skipped: chromium not installed");
        return;
    };
    let (_chromium, url) = launch(&exe);
    let mut tab = DevTools::connect(&url);
    tab.open_tab();
    let tab = &mut tab;

    // A valid Thaayam record: six turns. The page opens on the last position.
    let url = page_of("games/thaayam/spec-example.game", "thaayam-spec-example");
    tab.navigate(&url, "#view svg");
    assert_eq!(highlighted(tab), "6");
    assert!(
        caption(tab).starts_with("After turn 6 "),
        "{}",
        caption(tab)
    );
    tab.press("Home", 1);
    assert_eq!(highlighted(tab), "0");
    assert!(caption(tab).starts_with("The start"), "{}", caption(tab));
    tab.press("ArrowRight", 3);
    assert_eq!(highlighted(tab), "3");
    assert!(
        caption(tab).starts_with("After turn 3 (south: [3] e5+3)"),
        "{}",
        caption(tab)
    );
    // The picture is position 3's, the one `show --turn 3 --format svg` draws.
    let (_, svg3, _) = run(&[
        "show",
        "games/thaayam/spec-example.game",
        "--turn",
        "3",
        "--format",
        "svg",
    ]);
    assert!(svg3.contains(">north to move</text>"));
    let view = tab.eval("document.getElementById('view').innerHTML");
    assert!(view.as_str().unwrap().contains(">north to move</text>"));
    let discs = tab.eval("document.querySelectorAll('#view svg circle').length");
    assert_eq!(
        discs.as_u64().unwrap() as usize,
        svg3.matches("<circle").count(),
        "the same picture"
    );
    tab.screenshot("thaayam-spec-example-turn-3");
    tab.press("ArrowLeft", 1);
    assert_eq!(highlighted(tab), "2");
    tab.press("End", 1);
    assert_eq!(highlighted(tab), "6");
    tab.press("ArrowRight", 2);
    assert_eq!(highlighted(tab), "6", "no step past the end");
    tab.press("Home", 1);
    assert_eq!(highlighted(tab), "0");
    tab.click("#turns li[data-step=\"5\"]");
    assert_eq!(highlighted(tab), "5", "a click jumps to the turn");

    // A disputed record: the last step is the ruling, the illegal turn marked; the page
    // opens on it.
    let url = page_of(
        "games/thaayam/disputed-missing-extra-turn.game",
        "thaayam-disputed",
    );
    tab.navigate(&url, "#view svg");
    assert_eq!(highlighted(tab), "2");
    let marked = tab.eval(
        "document.querySelector('#turns li.current').className + ' ' + \
         document.getElementById('ruling').className",
    );
    assert_eq!(marked, "illegal current active");
    assert!(
        caption(tab).contains("is illegal (extra-turn)"),
        "{}",
        caption(tab)
    );
    // The ruling's texts show their code spans as code, without the backticks.
    let code = tab.eval("document.querySelector('#ruling .message code').textContent");
    assert_eq!(code, "north:");
    let message = tab.eval("document.querySelector('#ruling .message').textContent");
    assert_eq!(
        message,
        "the turn is labelled north:, but south captured on its last turn and plays again"
    );
    tab.screenshot("thaayam-disputed-ruling");

    // A long Halasi game: the last position after hundreds of turns.
    let url = page_of("games/halasi/table-3-seats.game", "halasi-table-3-seats");
    tab.navigate(&url, "#view svg");
    assert_eq!(highlighted(tab), "177");
    tab.press("Home", 1);
    assert_eq!(highlighted(tab), "0");
    tab.press("End", 1);
    assert_eq!(highlighted(tab), "177");
    tab.press("ArrowLeft", 10);
    assert_eq!(highlighted(tab), "167");
    tab.screenshot("halasi-table-3-seats-turn-167");
}
