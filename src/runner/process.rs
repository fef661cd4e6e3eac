//! A bot's process, the one place the runner handles processes: started in a process
//! group of its own, its lines read by a thread (bounded, stamped with the time they
//! arrived), its standard error drained (the last line kept for a crash's message), and
//! the whole group killed and the bot reaped when it is dropped, on every path.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use std::os::unix::process::CommandExt;

/// What the bot's standard output gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// A line, without its end.
    Line(String),
    /// A line longer than the limit (its length so far); reading stops there.
    TooLong(usize),
    /// A line that is not UTF-8.
    NotUtf8,
    /// The bot closed its output (it exited, or will).
    End,
}

/// What waiting for the bot gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    /// Output, and when it arrived.
    Got(Output, Instant),
    /// Nothing before the deadline.
    Timeout,
}

/// A running bot.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Output, Instant)>,
    /// The last line the bot wrote on standard error (at most 200 bytes of it).
    stderr_tail: Arc<Mutex<String>>,
    /// Set once the bot's output ended: nothing more will come.
    ended: bool,
}

impl Process {
    /// Starts `command` with `sh -c`, in a process group of its own, with `dir` as its
    /// working directory where given. Each line it writes is at most `max_line` bytes.
    pub fn start(
        command: &str,
        dir: Option<&std::path::Path>,
        max_line: usize,
    ) -> io::Result<Process> {
        adopt_orphans();
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        if let Some(d) = dir {
            cmd.current_dir(d);
        }
        // `referee …` in a bot's command is this referee, installed or not.
        if let Some(path) = path_with_own_dir() {
            cmd.env("PATH", path);
        }
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name("bot-stdout".into())
            .spawn(move || {
                read_lines(stdout, max_line, |o| tx.send((o, Instant::now())).is_ok())
            })?;
        let tail = Arc::new(Mutex::new(String::new()));
        let keep = tail.clone();
        thread::Builder::new()
            .name("bot-stderr".into())
            .spawn(move || drain_stderr(stderr, &keep))?;
        Ok(Process {
            child,
            stdin,
            lines: rx,
            stderr_tail: tail,
            ended: false,
        })
    }

    /// Writes one line (the newline added) and flushes it. A bot that has closed its
    /// input gives an error.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "input closed"))?;
        let mut buf = Vec::with_capacity(line.len() + 1);
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
        stdin.write_all(&buf)?;
        stdin.flush()
    }

    /// Waits for the bot's next output until `deadline`.
    pub fn receive(&mut self, deadline: Instant) -> Received {
        if self.ended {
            return Received::Got(Output::End, Instant::now());
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok((o, at)) => {
                if matches!(o, Output::End | Output::TooLong(_) | Output::NotUtf8) {
                    self.ended = matches!(o, Output::End);
                }
                Received::Got(o, at)
            }
            Err(RecvTimeoutError::Timeout) => Received::Timeout,
            Err(RecvTimeoutError::Disconnected) => {
                self.ended = true;
                Received::Got(Output::End, Instant::now())
            }
        }
    }

    /// How the bot ended, if it has: `exit status 3`, `killed by signal 9`; waits up to
    /// `grace` for it to end.
    pub fn exit_status(&mut self, grace: Duration) -> Option<String> {
        let until = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(describe_status(status)),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(2)),
                _ => return None,
            }
        }
    }

    /// The last line the bot wrote on standard error, if any.
    pub fn stderr_tail(&self) -> Option<String> {
        let t = self.stderr_tail.lock().ok()?;
        (!t.is_empty()).then(|| t.clone())
    }

    /// Asks the bot to end: closes its input after `last` (the `quit` line), waits up to
    /// `grace`, then kills its group (dropping does the killing too). Whether it ended
    /// by itself within the grace.
    pub fn finish(mut self, last: Option<&str>, grace: Duration) -> bool {
        if let Some(line) = last {
            let _ = self.send(line);
        }
        self.stdin = None;
        self.exit_status(grace).is_some()
    }

    fn kill_group(&mut self) {
        let pid = self.child.id();
        if let Some(pid) = rustix::process::Pid::from_raw(pid as i32) {
            // The bot leads its group (process_group(0)): every process it started
            // that stayed in the group goes with it, even after the bot itself exited.
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
        let _ = self.child.kill();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stdin = None;
        self.kill_group();
        // Reaped: no zombie is left, the bot's nor (see [`adopt_orphans`]) those of the
        // processes it started, which the kill left to the runner.
        let _ = self.child.wait();
        if let Some(pid) = rustix::process::Pid::from_raw(self.child.id() as i32) {
            let until = Instant::now() + Duration::from_millis(200);
            loop {
                match rustix::process::waitpgid(pid, rustix::process::WaitOptions::NOHANG) {
                    Ok(Some(_)) => continue,
                    Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(1)),
                    // None left (ECHILD), or some still dying after the grace.
                    _ => break,
                }
            }
        }
    }
}

/// Makes the runner the child subreaper of what it starts (Linux): a process a bot
/// started, orphaned when the bot's group is killed, becomes the runner's child rather
/// than init's, so the runner reaps it (a container's init may never do so).
fn adopt_orphans() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
    });
}

/// `PATH` with the directory of the running `referee` first, so that a bot command
/// naming `referee` runs this one; `None` where the runner is another program (a test).
fn path_with_own_dir() -> Option<std::ffi::OsString> {
    let exe = std::env::current_exe().ok()?;
    if exe.file_stem()? != "referee" {
        return None;
    }
    let dir = exe.parent()?.to_path_buf();
    let mut dirs = vec![dir];
    if let Some(old) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&old));
    }
    std::env::join_paths(dirs).ok()
}

/// `exit status 3`, `killed by signal 9`.
fn describe_status(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(c), _) => format!("exit status {c}"),
        (None, Some(s)) => format!("killed by signal {s}"),
        (None, None) => "ended".to_string(),
    }
}

/// Reads lines of at most `max` bytes from `input`, handing each to `send` (which says
/// whether to go on). A longer line is reported by its length and ends the reading, as
/// does a line that is not UTF-8 and the end of input.
pub fn read_lines(input: impl Read, max: usize, mut send: impl FnMut(Output) -> bool) {
    let mut reader = BufReader::with_capacity(64 * 1024, input);
    let mut line: Vec<u8> = Vec::new();
    loop {
        let buf = match reader.fill_buf() {
            Ok([]) => {
                // A last line without its newline still counts.
                if !line.is_empty() {
                    let _ = send(text(std::mem::take(&mut line)));
                }
                send(Output::End);
                return;
            }
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => {
                send(Output::End);
                return;
            }
        };
        match memchr::memchr(b'\n', buf) {
            Some(i) => {
                if line.len() + i > max {
                    send(Output::TooLong(line.len() + i));
                    return;
                }
                line.extend_from_slice(&buf[..i]);
                reader.consume(i + 1);
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                let out = text(std::mem::take(&mut line));
                let stop = out == Output::NotUtf8;
                if !send(out) || stop {
                    return;
                }
            }
            None => {
                let n = buf.len();
                if line.len() + n > max {
                    send(Output::TooLong(line.len() + n));
                    return;
                }
                line.extend_from_slice(buf);
                reader.consume(n);
            }
        }
    }
}

fn text(bytes: Vec<u8>) -> Output {
    match String::from_utf8(bytes) {
        Ok(s) => Output::Line(s),
        Err(_) => Output::NotUtf8,
    }
}

/// Reads standard error to its end, keeping the last non-empty line (clipped).
fn drain_stderr(input: impl Read, tail: &Mutex<String>) {
    let mut reader = BufReader::with_capacity(16 * 1024, input);
    let mut line = Vec::new();
    loop {
        line.clear();
        // Each line is read whole only up to 4 KiB; the rest of a longer one is skipped.
        match reader.by_ref().take(4096).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let s = String::from_utf8_lossy(&line);
                let s = s.trim();
                if !s.is_empty() {
                    if let Ok(mut t) = tail.lock() {
                        *t = s.chars().take(200).collect();
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<Output> {
        let mut got = Vec::new();
        read_lines(input, max, |o| {
            got.push(o);
            true
        });
        got
    }

    #[test]
    fn lines_are_read_and_bounded() {
        assert_eq!(
            lines(b"a\r\nbc\nlast", 10),
            vec![
                Output::Line("a".into()),
                Output::Line("bc".into()),
                Output::Line("last".into()),
                Output::End
            ]
        );
        assert_eq!(
            lines(b"ok\n0123456789abc\nnever", 10),
            vec![Output::Line("ok".into()), Output::TooLong(13)]
        );
        assert_eq!(lines(b"\xff\xfe\nx\n", 10), vec![Output::NotUtf8]);
    }

    #[test]
    fn a_bot_is_started_answers_and_is_reaped() {
        let mut p = Process::start("read l; echo \"got $l\"; echo oops >&2; exit 3", None, 100)
            .expect("sh runs");
        p.send("hi").unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        assert!(matches!(p.receive(deadline), Received::Got(Output::Line(l), _) if l == "got hi"));
        assert!(matches!(p.receive(deadline), Received::Got(Output::End, _)));
        assert_eq!(
            p.exit_status(Duration::from_secs(5)).as_deref(),
            Some("exit status 3")
        );
        // The stderr thread may finish a moment after the exit.
        let until = Instant::now() + Duration::from_secs(5);
        while p.stderr_tail().is_none() && Instant::now() < until {
            thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(p.stderr_tail().as_deref(), Some("oops"));
    }

    #[test]
    fn a_silent_bot_times_out_and_is_killed_with_its_children() {
        // The bot starts a child that would outlive it, then hangs.
        let mut p = Process::start("sleep 300 & echo $!; sleep 300", None, 100).unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        let Received::Got(Output::Line(child), _) = p.receive(deadline) else {
            panic!("the bot prints its child's pid");
        };
        let child: i32 = child.trim().parse().unwrap();
        assert_eq!(
            p.receive(Instant::now() + Duration::from_millis(50)),
            Received::Timeout
        );
        drop(p);
        // The grandchild was in the bot's group: it is gone (or a zombie of init's).
        let proc_dir = format!("/proc/{child}/stat");
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            let alive = std::fs::read_to_string(&proc_dir)
                .map(|s| !s.contains(") Z "))
                .unwrap_or(false);
            if !alive {
                break;
            }
            assert!(Instant::now() < until, "the bot's child outlived it");
            thread::sleep(Duration::from_millis(10));
        }
    }
}
