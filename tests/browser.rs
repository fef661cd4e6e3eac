//! `show --format html` in a real browser: Debian's chromium, headless, driven over the
//! DevTools protocol (`headless_chrome`). The test opens pages, steps with the keyboard,
//! checks the highlighted turn and the picture in the page, clicks a turn, and saves
//! screenshots to `target/tmp/browser/`. Without chromium it says it skipped and passes.

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::run;
use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, LaunchOptions, Tab};

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
    assert_eq!(code, 0, "{err}");
    let path = out_dir().join(format!("{name}.html"));
    std::fs::write(&path, page).unwrap();
    format!("file://{}", path.display())
}

fn eval(tab: &Tab, js: &str) -> serde_json::Value {
    tab.evaluate(js, false)
        .unwrap_or_else(|e| panic!("{js}: {e}"))
        .value
        .unwrap_or(serde_json::Value::Null)
}

/// The step the highlighted item of the turn list stands for.
fn highlighted(tab: &Tab) -> String {
    let v = eval(
        tab,
        "(function(){var li=document.querySelectorAll('#turns li.current');\
         return li.length===1 ? li[0].getAttribute('data-step') : 'highlighted: '+li.length;})()",
    );
    v.as_str().unwrap_or_default().to_string()
}

fn caption(tab: &Tab) -> String {
    let v = eval(tab, "document.getElementById('caption').textContent");
    v.as_str().unwrap_or_default().to_string()
}

fn screenshot(tab: &Tab, name: &str) -> PathBuf {
    let png = tab
        .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
        .expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    let path = out_dir().join(format!("{name}.png"));
    std::fs::write(&path, png).unwrap();
    println!("screenshot: {}", path.display());
    path
}

fn press(tab: &Tab, key: &str, times: usize) {
    for _ in 0..times {
        tab.press_key(key).unwrap_or_else(|e| panic!("{key}: {e}"));
    }
}

#[test]
fn html_pages_step_in_chromium() {
    let Some(chromium) = chromium() else {
        println!("skipped: chromium not installed");
        return;
    };
    let profile = tempfile::tempdir().unwrap();
    let args: Vec<&OsStr> = [
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    .iter()
    .map(OsStr::new)
    .collect();
    let options = LaunchOptions::default_builder()
        .path(Some(chromium))
        .headless(true)
        .sandbox(false)
        .window_size(Some((1280, 960)))
        .user_data_dir(Some(profile.path().to_path_buf()))
        .args(args)
        .idle_browser_timeout(Duration::from_secs(120))
        .build()
        .expect("launch options");
    let browser = Browser::new(options).expect("chromium starts");
    let tab = browser.new_tab().expect("a tab");
    tab.set_default_timeout(Duration::from_secs(60));

    // A valid Thaayam record: six turns.
    let url = page_of("games/thaayam/spec-example.game", "thaayam-spec-example");
    tab.navigate_to(&url)
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    tab.wait_for_element("#view svg").expect("the picture");
    assert_eq!(highlighted(&tab), "0");
    assert!(caption(&tab).starts_with("The start"), "{}", caption(&tab));
    press(&tab, "ArrowRight", 3);
    assert_eq!(highlighted(&tab), "3");
    assert!(
        caption(&tab).starts_with("After turn 3 (south: [3] e5+3)"),
        "{}",
        caption(&tab)
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
    let view = eval(&tab, "document.getElementById('view').innerHTML");
    assert!(view.as_str().unwrap().contains(">north to move</text>"));
    let discs = eval(&tab, "document.querySelectorAll('#view svg circle').length");
    assert_eq!(
        discs.as_u64().unwrap() as usize,
        svg3.matches("<circle").count(),
        "the same picture"
    );
    screenshot(&tab, "thaayam-spec-example-turn-3");
    press(&tab, "ArrowLeft", 1);
    assert_eq!(highlighted(&tab), "2");
    press(&tab, "End", 1);
    assert_eq!(highlighted(&tab), "6");
    press(&tab, "ArrowRight", 2);
    assert_eq!(highlighted(&tab), "6", "no step past the end");
    press(&tab, "Home", 1);
    assert_eq!(highlighted(&tab), "0");
    tab.find_element("#turns li[data-step=\"5\"]")
        .unwrap()
        .click()
        .unwrap();
    assert_eq!(highlighted(&tab), "5", "a click jumps to the turn");

    // A disputed record: the last step is the ruling, the illegal turn marked.
    let url = page_of(
        "games/thaayam/disputed-missing-extra-turn.game",
        "thaayam-disputed",
    );
    tab.navigate_to(&url)
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    tab.wait_for_element("#view svg").expect("the picture");
    press(&tab, "ArrowRight", 2);
    assert_eq!(highlighted(&tab), "2");
    let marked = eval(
        &tab,
        "document.querySelector('#turns li.current').className + ' ' + \
         document.getElementById('ruling').className",
    );
    assert_eq!(marked, "illegal current active");
    assert!(
        caption(&tab).contains("is illegal (turn-order)"),
        "{}",
        caption(&tab)
    );
    screenshot(&tab, "thaayam-disputed-ruling");

    // A long Halasi game: the last position after hundreds of turns.
    let url = page_of("games/halasi/table-3-seats.game", "halasi-table-3-seats");
    tab.navigate_to(&url)
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    tab.wait_for_element("#view svg").expect("the picture");
    press(&tab, "End", 1);
    assert_eq!(highlighted(&tab), "177");
    press(&tab, "ArrowLeft", 10);
    assert_eq!(highlighted(&tab), "167");
    screenshot(&tab, "halasi-table-3-seats-turn-167");
}
