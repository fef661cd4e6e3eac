//! The lock on a record file: `move` and `play --record` hold it from reading the record
//! to their last write, so read–check–write is one critical section.
//!
//! It is an advisory lock (`flock` on Unix, through `std::fs::File::lock`) on the record
//! file itself, released by the system when the process ends however it ends, so a
//! killed `play` never wedges the file. A record is replaced by writing a temporary file
//! and renaming it over the old one; the new file is locked *before* the rename, so the
//! writer holds the record throughout. A process that was waiting on the old file gets a
//! lock on a file no longer at the path: it checks that the path still names the file it
//! locked, and starts again on the new one if not.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The environment variable that sets how long to wait for a record another referee
/// holds, in seconds (default [`DEFAULT_WAIT`]).
pub const WAIT_VAR: &str = "REFEREE_LOCK_WAIT";
/// How long `move` and `play --record` wait for a record another referee holds.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(10);

/// The wait from [`WAIT_VAR`], or the default; a value that is not a number of seconds
/// is a usage error.
pub fn wait_limit() -> Result<Duration, String> {
    match std::env::var(WAIT_VAR) {
        Err(_) => Ok(DEFAULT_WAIT),
        Ok(v) => v
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .ok_or_else(|| format!("{WAIT_VAR} takes a number of seconds, got `{v}`")),
    }
}

/// Why a record could not be locked.
#[derive(Debug)]
pub enum LockError {
    /// Another process held the record for the whole wait.
    Busy(Duration),
    /// The file cannot be opened or locked (`NotFound` when it does not exist).
    Io(io::Error),
}

impl From<io::Error> for LockError {
    fn from(e: io::Error) -> Self {
        LockError::Io(e)
    }
}

/// A record file held under an exclusive advisory lock; dropping it releases the lock.
pub struct RecordLock {
    /// The open, locked file, which is the file at `path` while the lock is held.
    file: File,
    path: PathBuf,
}

impl RecordLock {
    /// Locks the existing record at `path`, waiting at most `wait` for another holder.
    /// `write`: opened for writing too (`append`).
    pub fn acquire(path: &Path, write: bool, wait: Duration) -> Result<RecordLock, LockError> {
        let deadline = Instant::now() + wait;
        loop {
            let file = OpenOptions::new().read(true).write(write).open(path)?;
            let mut pause = Duration::from_millis(1);
            loop {
                match file.try_lock() {
                    Ok(()) => break,
                    Err(TryLockError::WouldBlock) => {
                        let now = Instant::now();
                        if now >= deadline {
                            return Err(LockError::Busy(wait));
                        }
                        std::thread::sleep(pause.min(deadline - now));
                        pause = (pause * 2).min(Duration::from_millis(20));
                    }
                    Err(TryLockError::Error(e)) => return Err(LockError::Io(e)),
                }
            }
            // The holder we waited for may have renamed a new file over this one: the
            // lock then guards nothing, and we start again on the file now at the path.
            if is_at(&file, path)? {
                return Ok(RecordLock {
                    file,
                    path: path.to_path_buf(),
                });
            }
        }
    }

    /// Creates the record at `path` holding `text`, locked, unless a file is already
    /// there (then the error is `AlreadyExists`). The file appears whole or not at all.
    pub fn create(path: &Path, text: &str) -> io::Result<RecordLock> {
        let tmp = locked_temp_with(path, text, None)?;
        let file = tmp.persist_noclobber(path).map_err(|e| e.error)?;
        sync_dir(path)?;
        Ok(RecordLock {
            file,
            path: path.to_path_buf(),
        })
    }

    /// The record's bytes, read through the locked file: all of them, or at most `max`
    /// and one more (so that a caller can tell the file is over `max`).
    pub fn read(&self, max: Option<usize>) -> io::Result<Vec<u8>> {
        let mut f = &self.file;
        f.seek(SeekFrom::Start(0))?;
        let mut bytes = Vec::new();
        match max {
            Some(max) => f.take(max as u64 + 1).read_to_end(&mut bytes)?,
            None => f.read_to_end(&mut bytes)?,
        };
        Ok(bytes)
    }

    /// Replaces the record by `text` atomically (a temporary file beside it, synced, then
    /// renamed over it), keeping the record's permissions and the lock: the new file is
    /// locked before the rename and the old one released after it.
    pub fn replace(&mut self, text: &str) -> io::Result<()> {
        let permissions = self.file.metadata()?.permissions();
        let tmp = locked_temp_with(&self.path, text, Some(permissions))?;
        let file = tmp.persist(&self.path).map_err(|e| e.error)?;
        sync_dir(&self.path)?;
        // The old file, no longer at the path, is closed here and its lock released.
        self.file = file;
        Ok(())
    }

    /// Appends `line` and a line end to the record and syncs it to disk.
    pub fn append(&mut self, line: &str) -> io::Result<()> {
        self.file.seek(SeekFrom::End(0))?;
        // One write call: a process killed meanwhile leaves the whole line or none of it.
        self.file.write_all(format!("{line}\n").as_bytes())?;
        self.file.sync_data()
    }
}

/// A temporary file beside `path` holding `text`, synced and locked. Its permissions
/// are `permissions` (those of the file it replaces), else those of any new file (on
/// Unix, read-write for all less the umask; a bare temporary file would be private).
fn locked_temp_with(
    path: &Path,
    text: &str,
    permissions: Option<std::fs::Permissions>,
) -> io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    #[cfg(unix)]
    if permissions.is_none() {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir_of(path))?;
    // Nobody else knows this file yet, so the lock is free.
    tmp.as_file().try_lock().map_err(io::Error::from)?;
    if let Some(p) = permissions {
        tmp.as_file().set_permissions(p)?;
    }
    tmp.write_all(text.as_bytes())?;
    tmp.as_file().sync_all()?;
    Ok(tmp)
}

fn dir_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Whether `path` names the open `file` (the same device and inode).
#[cfg(unix)]
fn is_at(file: &File, path: &Path) -> io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let open = file.metadata()?;
    let named = std::fs::metadata(path)?;
    Ok(open.dev() == named.dev() && open.ino() == named.ino())
}

/// Elsewhere std gives no stable file identity; a file open there cannot be replaced by
/// a rename in the common case (see `docs/decisions.md`).
#[cfg(not(unix))]
fn is_at(_file: &File, path: &Path) -> io::Result<bool> {
    std::fs::metadata(path).map(|_| true)
}

/// Syncs the directory holding `path`, so a rename in it survives a power cut.
#[cfg(unix)]
fn sync_dir(path: &Path) -> io::Result<()> {
    File::open(dir_of(path))?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_path: &Path) -> io::Result<()> {
    Ok(())
}
