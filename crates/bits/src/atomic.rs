//! Files written whole or not at all: the contents go to a temporary file beside the target
//! (named for this process, so two runs writing one path do not share it), are flushed to
//! disk and checked, and only then take the target's name by a rename. A reader, a run
//! stopped part way or a machine that loses power never sees half a file, and an error
//! leaves the target as it was and no temporary behind.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes `path` through a temporary file: `fill` writes the contents (buffered) and returns
/// what it made, `check` reads the flushed, synced temporary back before the rename. `io`
/// turns a file error into the caller's error type. The error of `fill` or `check` is
/// returned as it is; either way the temporary is removed.
pub fn write_atomic<T, E>(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<&mut File>) -> Result<T, E>,
    check: impl FnOnce(&Path, &mut T) -> Result<(), E>,
    io: impl Fn(std::io::Error) -> E,
) -> Result<T, E> {
    let tmp = PathBuf::from(format!("{}.{}.tmp", path.display(), std::process::id()));
    let write = || -> Result<T, E> {
        let mut f = File::create(&tmp).map_err(&io)?;
        let mut made = {
            let mut buf = BufWriter::with_capacity(1 << 20, &mut f);
            let made = fill(&mut buf)?;
            buf.flush().map_err(&io)?;
            made
        };
        f.sync_all().map_err(&io)?;
        drop(f);
        check(&tmp, &mut made)?;
        std::fs::rename(&tmp, path).map_err(&io)?;
        // The rename itself reaches the disk with the directory (best effort: not every
        // platform opens a directory).
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Ok(d) = File::open(dir) {
                d.sync_all().ok();
            }
        }
        Ok(made)
    };
    write().inspect_err(|_| {
        std::fs::remove_file(&tmp).ok();
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_written_whole_or_not_at_all() {
        let dir = std::env::temp_dir().join(format!("bits-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f");
        let names = || std::fs::read_dir(&dir).unwrap().count();
        let io = |e: std::io::Error| e.to_string();
        let n =
            write_atomic(&path, |w| w.write_all(b"abc").map(|_| 3).map_err(io), |_, _| Ok(()), io);
        assert_eq!((n, std::fs::read(&path).unwrap()), (Ok(3), b"abc".to_vec()));
        // A failed fill or check: the old file stays, no temporary is left.
        let fill = write_atomic(
            &path,
            |w| {
                w.write_all(b"x").map_err(io)?;
                Err::<(), _>("fill".to_string())
            },
            |_, _| Ok(()),
            io,
        );
        assert_eq!(fill, Err("fill".into()));
        let check = write_atomic(
            &path,
            |w| w.write_all(b"xyz").map_err(io),
            |tmp, _| {
                assert_eq!(std::fs::read(tmp).unwrap(), b"xyz");
                Err("check".to_string())
            },
            io,
        );
        assert_eq!(check, Err("check".into()));
        assert_eq!((std::fs::read(&path).unwrap(), names()), (b"abc".to_vec(), 1));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
