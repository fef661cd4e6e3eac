//! The instruction-count guard: compares what the gungraun benchmarks measured
//! (`benches/instructions.rs`, `benches/instructions_library.rs`) with the committed
//! baseline, `benches/instructions-baseline.json` (docs/performance.md, "Instruction
//! counts and the guard"). `.ci/instructions` runs the benchmarks, then this.
//!
//! ```text
//! cargo run --release --example instruction_guard             # compare; exit 1 on a failure
//! cargo run --release --example instruction_guard -- --update # write a new baseline
//! ```
//!
//! Options: `--baseline FILE` (default `benches/instructions-baseline.json`), `--results
//! DIR` (default `TARGET/gungraun/referee`, TARGET being `$CARGO_TARGET_DIR` or
//! `target/`).
//!
//! What gungraun measured is read from the `summary.json` it saves beside each
//! benchmark's output when run with `--save-summary=json` (env `GUNGRAUN_SAVE_SUMMARY`):
//! `TARGET/gungraun/referee/FILE/GROUP/FUNCTION[.ID]/summary.json`. A benchmark's id is
//! `GROUP/ID` (`check/halatafl`), or `GROUP/FUNCTION` where it has no id
//! (`cold/check_one_record`); its count is Callgrind's total `Ir` (instructions executed,
//! every thread and process of the run).
//!
//! The guard fails (exit 1) when a count is more than 5 % above its baseline, when a
//! benchmark ran that the baseline does not have, or when one of the baseline did not
//! run. When rustc, valgrind or gungraun differ from the baseline's, it prints the
//! differences and the table and passes. Exit 2: the guard could not run (no results,
//! an unreadable file).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A count more than this many per cent above its baseline fails the guard.
const LIMIT_PERCENT: u64 = 5;

/// The tools a measurement depends on, each as its `--version` says.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Tools {
    rustc: String,
    valgrind: String,
    gungraun: String,
}

/// The committed baseline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Baseline {
    /// The day the counts were measured (UTC, `YYYY-MM-DD`).
    taken: String,
    #[serde(flatten)]
    tools: Tools,
    /// Instructions (Callgrind's `Ir`) by benchmark id.
    instructions: BTreeMap<String, u64>,
}

/// One line of the table.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    id: String,
    baseline: u64,
    now: u64,
}

impl Row {
    /// The change in per cent, + for more instructions.
    fn change_percent(&self) -> f64 {
        (self.now as f64 - self.baseline as f64) * 100.0 / self.baseline.max(1) as f64
    }

    /// More than `LIMIT_PERCENT` above the baseline.
    fn over_limit(&self) -> bool {
        u128::from(self.now) * 100 > u128::from(self.baseline) * u128::from(100 + LIMIT_PERCENT)
    }
}

/// What the comparison found.
#[derive(Clone, Debug, PartialEq)]
struct Verdict {
    /// Every benchmark both measured and in the baseline, by id.
    rows: Vec<Row>,
    /// Measured, not in the baseline.
    not_in_baseline: Vec<String>,
    /// In the baseline, not measured.
    not_run: Vec<String>,
    /// (tool, the baseline's version, this run's) where they differ.
    tool_changes: Vec<(&'static str, String, String)>,
}

impl Verdict {
    fn over_limit(&self) -> Vec<&Row> {
        self.rows.iter().filter(|r| r.over_limit()).collect()
    }

    /// (benchmarks that pass, benchmarks that fail the guard): a count past the limit
    /// fails only with the baseline's tools; a benchmark missing on either side fails.
    fn counts(&self) -> (usize, usize) {
        let grown = if self.tool_changes.is_empty() {
            self.over_limit().len()
        } else {
            0
        };
        (
            self.rows.len() - grown,
            grown + self.not_in_baseline.len() + self.not_run.len(),
        )
    }

    /// A count grew past the limit with the baseline's tools, or the benchmarks and the
    /// baseline do not match. Growth with other tools is reported, not failed: a new
    /// compiler must not block every landing.
    fn fails(&self) -> bool {
        self.counts().1 > 0
    }
}

/// Compares the measured counts with the baseline (pure: no I/O).
fn compare(baseline: &Baseline, tools: &Tools, measured: &BTreeMap<String, u64>) -> Verdict {
    let rows = measured
        .iter()
        .filter_map(|(id, &now)| {
            baseline.instructions.get(id).map(|&b| Row {
                id: id.clone(),
                baseline: b,
                now,
            })
        })
        .collect();
    let not_in_baseline = measured
        .keys()
        .filter(|id| !baseline.instructions.contains_key(*id))
        .cloned()
        .collect();
    let not_run = baseline
        .instructions
        .keys()
        .filter(|id| !measured.contains_key(*id))
        .cloned()
        .collect();
    let b = &baseline.tools;
    let tool_changes = [
        ("rustc", &b.rustc, &tools.rustc),
        ("valgrind", &b.valgrind, &tools.valgrind),
        ("gungraun", &b.gungraun, &tools.gungraun),
    ]
    .into_iter()
    .filter(|(_, was, now)| was != now)
    .map(|(what, was, now)| (what, was.clone(), now.clone()))
    .collect();
    Verdict {
        rows,
        not_in_baseline,
        not_run,
        tool_changes,
    }
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The report: the table, then what failed or why nothing did.
fn render(v: &Verdict, baseline: &Baseline) -> String {
    let mut out = String::new();
    let width = v.rows.iter().map(|r| r.id.len()).max().unwrap_or(2).max(9);
    out += &format!(
        "{:<width$}  {:>15}  {:>15}  {:>9}\n",
        "benchmark", "baseline", "now", "change"
    );
    for r in &v.rows {
        let mark = if r.over_limit() {
            format!("  more than {LIMIT_PERCENT} % above")
        } else {
            String::new()
        };
        out += &format!(
            "{:<width$}  {:>15}  {:>15}  {:>+8.3}%{mark}\n",
            r.id,
            grouped(r.baseline),
            grouped(r.now),
            r.change_percent()
        );
    }
    for id in &v.not_in_baseline {
        out += &format!("{id}: measured, but not in the baseline\n");
    }
    for id in &v.not_run {
        out += &format!("{id}: in the baseline, but did not run\n");
    }
    let over = v.over_limit();
    if !v.tool_changes.is_empty() {
        out += &format!(
            "\nThe tools differ from the baseline's (taken {}):\n",
            baseline.taken
        );
        for (what, was, now) in &v.tool_changes {
            out += &format!("  {what}: baseline {was}, now {now}\n");
        }
        out += "Counts are compared only with the baseline's tools, so the changes above are \
                reported, not failed.\nTake a new baseline with these tools, and say so in \
                its commit: bash .ci/instructions --update\n";
    }
    if v.fails() {
        out += &format!(
            "\ninstruction guard: FAILED (baseline taken {})\n",
            baseline.taken
        );
        if v.tool_changes.is_empty() && !over.is_empty() {
            let ids: Vec<&str> = over.iter().map(|r| r.id.as_str()).collect();
            out += &format!(
                "  more than {LIMIT_PERCENT} % more instructions: {}\n",
                ids.join(", ")
            );
        }
        if !v.not_in_baseline.is_empty() {
            out += &format!(
                "  not in the baseline: {} (a new benchmark needs a new baseline)\n",
                v.not_in_baseline.join(", ")
            );
        }
        if !v.not_run.is_empty() {
            out += &format!(
                "  in the baseline but not run: {} (run every benchmark: bash .ci/instructions)\n",
                v.not_run.join(", ")
            );
        }
        out += "A slowdown that is meant takes a new baseline (bash .ci/instructions --update), \
                committed with what got slower and why (docs/performance.md).\n";
    } else {
        out += &format!(
            "\ninstruction guard: passed, {} benchmarks within {LIMIT_PERCENT} % of the baseline \
             taken {}\n",
            v.rows.len(),
            baseline.taken
        );
    }
    // The closing line in the form CI reads for any language.
    let (passed, failed) = v.counts();
    out += &format!("instructions: {passed} passed, {failed} failed\n");
    out
}

/// The id and the instruction count of one gungraun `summary.json`.
fn read_summary(json: &Value) -> Result<(String, u64), String> {
    let field = |name: &str| json.get(name).and_then(Value::as_str);
    let group = field("group").ok_or("no group")?;
    let name = match field("id") {
        Some(id) => id,
        None => field("function_name").ok_or("no function_name")?,
    };
    let profiles = json
        .get("profiles")
        .and_then(Value::as_array)
        .ok_or("no profiles")?;
    let callgrind = profiles
        .iter()
        .find(|p| p.get("tool").and_then(Value::as_str) == Some("Callgrind"))
        .ok_or("no Callgrind profile")?;
    let ir = callgrind
        .pointer("/data/total/metrics/Ir/values/new")
        .and_then(Value::as_u64)
        .ok_or("no total Ir")?;
    Ok((format!("{group}/{name}"), ir))
}

/// Every `summary.json` under `dir`, by benchmark id.
fn read_results(dir: &Path) -> Result<BTreeMap<String, u64>, String> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| format!("{}: {e}", d.display()))?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|n| n == "summary.json") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut measured = BTreeMap::new();
    for file in files {
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let json: Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        let (id, ir) = read_summary(&json).map_err(|e| format!("{}: {e}", file.display()))?;
        if measured.insert(id.clone(), ir).is_some() {
            return Err(format!("{id}: two summaries give this id"));
        }
    }
    Ok(measured)
}

/// The first line a tool prints for `--version`.
fn version_of(program: &str) -> String {
    std::process::Command::new(program)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.lines().next().map(str::to_string))
        .unwrap_or_else(|| format!("{program}: not found"))
}

/// The version of `gungraun` in `Cargo.lock`.
fn gungraun_version(manifest_dir: &Path) -> String {
    let lock = std::fs::read_to_string(manifest_dir.join("Cargo.lock")).unwrap_or_default();
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"gungraun\"" {
            if let Some(v) = lines.next().and_then(|l| l.strip_prefix("version = ")) {
                return v.trim_matches('"').to_string();
            }
        }
    }
    "gungraun: not in Cargo.lock".into()
}

fn tools_now(manifest_dir: &Path) -> Tools {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    Tools {
        rustc: version_of(&rustc),
        valgrind: version_of("valgrind"),
        gungraun: gungraun_version(manifest_dir),
    }
}

/// The day of the earliest measurement, `YYYY-MM-DD`, from the summaries' `started_at`.
fn measured_on(dir: &Path) -> Option<String> {
    let mut days = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).ok()?.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|n| n == "summary.json") {
                let json: Value =
                    serde_json::from_str(&std::fs::read_to_string(&path).ok()?).ok()?;
                if let Some(day) = json.get("started_at").and_then(Value::as_str) {
                    days.push(day.get(..10)?.to_string());
                }
            }
        }
    }
    days.into_iter().min()
}

struct Args {
    update: bool,
    baseline: PathBuf,
    results: PathBuf,
}

fn args(manifest_dir: &Path) -> Result<Args, String> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest_dir.join("target"));
    let mut a = Args {
        update: false,
        baseline: manifest_dir.join("benches/instructions-baseline.json"),
        results: target.join("gungraun/referee"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--update" => a.update = true,
            "--baseline" => a.baseline = it.next().ok_or("--baseline needs a file")?.into(),
            "--results" => a.results = it.next().ok_or("--results needs a folder")?.into(),
            _ => {
                return Err(format!(
                    "{arg}: not an option (--update, --baseline FILE, --results DIR)"
                ))
            }
        }
    }
    Ok(a)
}

fn run() -> Result<bool, String> {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let a = args(manifest_dir)?;
    let measured = read_results(&a.results)?;
    if measured.is_empty() {
        return Err(format!(
            "no summary.json under {}: run the benchmarks with --save-summary=json first \
             (bash .ci/instructions does)",
            a.results.display()
        ));
    }
    let tools = tools_now(manifest_dir);
    if a.update {
        let baseline = Baseline {
            taken: measured_on(&a.results).unwrap_or_default(),
            tools,
            instructions: measured,
        };
        let text = serde_json::to_string_pretty(&baseline).map_err(|e| e.to_string())? + "\n";
        std::fs::write(&a.baseline, text).map_err(|e| format!("{}: {e}", a.baseline.display()))?;
        println!(
            "instruction guard: wrote {} ({} benchmarks, {}, {}, gungraun {})",
            a.baseline.display(),
            baseline.instructions.len(),
            baseline.tools.rustc,
            baseline.tools.valgrind,
            baseline.tools.gungraun
        );
        for (id, n) in &baseline.instructions {
            println!("  {id:<28} {:>15}", grouped(*n));
        }
        return Ok(true);
    }
    let text = std::fs::read_to_string(&a.baseline)
        .map_err(|e| format!("{}: {e}", a.baseline.display()))?;
    let baseline: Baseline =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", a.baseline.display()))?;
    let verdict = compare(&baseline, &tools, &measured);
    print!("{}", render(&verdict, &baseline));
    Ok(!verdict.fails())
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("instruction guard: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tools() -> Tools {
        Tools {
            rustc: "rustc 1.95.0 (59807616e 2026-04-14)".into(),
            valgrind: "valgrind-3.19.0".into(),
            gungraun: "0.20.0".into(),
        }
    }

    fn baseline() -> Baseline {
        Baseline {
            taken: "2026-01-02".into(),
            tools: tools(),
            instructions: [
                ("check/halatafl".to_string(), 1_000_000),
                ("playouts/halves".to_string(), 2_000_000),
            ]
            .into_iter()
            .collect(),
        }
    }

    fn measured(halatafl: u64, halves: u64) -> BTreeMap<String, u64> {
        [
            ("check/halatafl".to_string(), halatafl),
            ("playouts/halves".to_string(), halves),
        ]
        .into_iter()
        .collect()
    }

    #[test]
    fn the_same_counts_pass() {
        let v = compare(&baseline(), &tools(), &measured(1_000_000, 2_000_000));
        assert!(!v.fails());
        let report = render(&v, &baseline());
        assert!(
            report.contains("instruction guard: passed, 2 benchmarks"),
            "{report}"
        );
        assert!(
            report.ends_with("\ninstructions: 2 passed, 0 failed\n"),
            "{report}"
        );
    }

    #[test]
    fn ten_per_cent_more_fails_and_four_passes() {
        let slow = compare(&baseline(), &tools(), &measured(1_100_000, 2_000_000));
        assert!(slow.fails());
        let report = render(&slow, &baseline());
        assert!(report.contains("+10.000%"), "{report}");
        assert!(report.contains("FAILED"), "{report}");
        assert!(
            report.contains("more instructions: check/halatafl"),
            "{report}"
        );
        let bit = compare(&baseline(), &tools(), &measured(1_040_000, 2_000_000));
        assert!(!bit.fails(), "{}", render(&bit, &baseline()));
    }

    #[test]
    fn the_limit_is_five_per_cent_exactly() {
        assert!(!compare(&baseline(), &tools(), &measured(1_050_000, 2_000_000)).fails());
        assert!(compare(&baseline(), &tools(), &measured(1_050_001, 2_000_000)).fails());
    }

    #[test]
    fn fewer_instructions_pass() {
        let v = compare(&baseline(), &tools(), &measured(500_000, 1_000_000));
        assert!(!v.fails());
        assert!(render(&v, &baseline()).contains("-50.000%"));
    }

    #[test]
    fn other_tools_report_growth_without_failing() {
        let mut newer = tools();
        newer.rustc = "rustc 1.96.0 (00000000 2026-05-28)".into();
        let v = compare(&baseline(), &newer, &measured(1_100_000, 2_000_000));
        assert!(!v.fails());
        assert_eq!(
            v.tool_changes,
            vec![("rustc", tools().rustc, newer.rustc.clone())]
        );
        let report = render(&v, &baseline());
        assert!(report.contains("+10.000%"), "{report}");
        assert!(report.contains("rustc: baseline rustc 1.95.0"), "{report}");
        assert!(report.contains("--update"), "{report}");
        assert!(!report.contains("FAILED"), "{report}");
        assert!(
            report.ends_with("\ninstructions: 2 passed, 0 failed\n"),
            "{report}"
        );
    }

    #[test]
    fn a_benchmark_not_in_the_baseline_fails() {
        let mut m = measured(1_000_000, 2_000_000);
        m.insert("engine/halasi".into(), 5);
        let v = compare(&baseline(), &tools(), &m);
        assert!(v.fails());
        assert_eq!(v.not_in_baseline, vec!["engine/halasi".to_string()]);
        let report = render(&v, &baseline());
        assert!(
            report.contains("not in the baseline: engine/halasi"),
            "{report}"
        );
        assert!(
            report.ends_with("\ninstructions: 2 passed, 1 failed\n"),
            "{report}"
        );
    }

    #[test]
    fn a_benchmark_of_the_baseline_not_run_fails_even_with_other_tools() {
        let mut m = measured(1_000_000, 2_000_000);
        m.remove("playouts/halves");
        let mut newer = tools();
        newer.valgrind = "valgrind-3.24.0".into();
        let v = compare(&baseline(), &newer, &m);
        assert!(v.fails());
        assert_eq!(v.not_run, vec!["playouts/halves".to_string()]);
        assert!(render(&v, &baseline()).contains("in the baseline but not run: playouts/halves"));
    }

    #[test]
    fn a_summary_gives_its_id_and_total_instructions() {
        let with_id = serde_json::json!({
            "group": "check", "id": "halatafl", "function_name": "corpus",
            "profiles": [{"tool": "Callgrind",
                "data": {"total": {"metrics": {"Ir": {"values": {"new": 570072032, "old": 1}}}}}}]
        });
        assert_eq!(
            read_summary(&with_id),
            Ok(("check/halatafl".to_string(), 570_072_032))
        );
        let without_id = serde_json::json!({
            "group": "cold", "function_name": "check_one_record",
            "profiles": [{"tool": "Callgrind",
                "data": {"total": {"metrics": {"Ir": {"values": {"new": 4094672}}}}}}]
        });
        assert_eq!(
            read_summary(&without_id),
            Ok(("cold/check_one_record".to_string(), 4_094_672))
        );
    }

    #[test]
    fn the_baseline_file_round_trips() {
        let text = serde_json::to_string_pretty(&baseline()).unwrap();
        assert!(text.contains("\"rustc\": \"rustc 1.95.0"), "{text}");
        assert_eq!(serde_json::from_str::<Baseline>(&text).unwrap(), baseline());
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(5_731_924_022), "5,731,924,022");
    }
}
