//! The one driver of bot programs: every referee of an external bot (the
//! JSON-lines protocol, and the legacy protocols of the umbrella crate)
//! starts, times and stops its program here.
//!
//! The program's output is read line by line on a thread of its own, so a
//! silent or runaway program cannot hang the referee; a line longer than
//! [`MAX_LINE`] is garbage; the program is killed when the driver is
//! dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use crate::BotFailure;

/// Longest line accepted from a program; a longer one is garbage.
pub const MAX_LINE: usize = 64 * 1024;

/// A running bot program with its input and a reader of its output lines.
pub struct BotProcess {
    program: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Result<String, BotFailure>>,
}

impl BotProcess {
    /// Starts `argv` (no shell is involved); its standard error is
    /// inherited, so that its own diagnostics reach the operator.
    pub fn spawn(argv: &[String]) -> Result<BotProcess, BotFailure> {
        let program = argv.first().cloned().unwrap_or_default();
        let spawn_error = |reason: String| BotFailure::Spawn {
            program: program.clone(),
            reason,
        };
        let mut child = Command::new(&program)
            .args(argv.iter().skip(1))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| spawn_error(e.to_string()))?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| spawn_error("no standard output".into()))?;
        let (tx, lines) = mpsc::channel();
        // The reader thread ends when the program closes its output (at
        // the latest when it is killed on drop).
        thread::Builder::new()
            .name("bot-reader".into())
            .spawn(move || read_lines(stdout, MAX_LINE, &tx))
            .map_err(|e| spawn_error(e.to_string()))?;
        Ok(BotProcess {
            program,
            child,
            stdin,
            lines,
        })
    }

    /// The program's path as given.
    pub fn program(&self) -> &str {
        &self.program
    }

    /// Writes `line` and a newline to the program's input.
    pub fn send(&mut self, line: &[u8]) -> Result<(), BotFailure> {
        let stdin = self.stdin.as_mut().ok_or(BotFailure::Exited)?;
        stdin
            .write_all(line)
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .map_err(|e| BotFailure::Write(e.to_string()))
    }

    /// The program's next non-empty output line (trimmed), waiting at most
    /// `limit`.
    pub fn receive(&mut self, limit: Duration) -> Result<String, BotFailure> {
        match self.lines.recv_timeout(limit) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => Err(BotFailure::Timeout(limit)),
            Err(RecvTimeoutError::Disconnected) => Err(BotFailure::Exited),
        }
    }

    /// Closes the program's input after writing `farewell` (if any): the
    /// polite way to ask it to stop before it is killed on drop.
    pub fn close(&mut self, farewell: Option<&[u8]>) {
        if let Some(mut stdin) = self.stdin.take() {
            if let Some(line) = farewell {
                let _ = stdin.write_all(line).and_then(|()| stdin.write_all(b"\n"));
            }
        }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `from` line by line, sending each non-empty trimmed line to `tx`;
/// a line longer than `max` bytes is sent as [`BotFailure::Garbage`] of its
/// first 200 characters and ends the reading, as do the end of the stream
/// and a closed channel.
fn read_lines(from: impl Read, max: usize, tx: &mpsc::Sender<Result<String, BotFailure>>) {
    let mut reader = BufReader::new(from);
    loop {
        let mut buf = Vec::new();
        let read = (&mut reader)
            .take(max as u64 + 1)
            .read_until(b'\n', &mut buf);
        let line = match read {
            Ok(0) | Err(_) => return,
            Ok(_) if buf.len() > max => {
                let head = String::from_utf8_lossy(&buf[..200.min(buf.len())]).into_owned();
                let _ = tx.send(Err(BotFailure::Garbage(head)));
                return;
            }
            Ok(_) => String::from_utf8_lossy(&buf).trim().to_owned(),
        };
        if line.is_empty() {
            continue;
        }
        if tx.send(Ok(line)).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlong_lines_are_garbage_and_end_the_reading() {
        let input = format!("short\n\n{}\nnever read\n", "x".repeat(300));
        let (tx, rx) = mpsc::channel();
        read_lines(input.as_bytes(), 100, &tx);
        drop(tx);
        let got: Vec<_> = rx.iter().collect();
        assert_eq!(got[0], Ok("short".to_owned()));
        assert!(matches!(&got[1], Err(BotFailure::Garbage(head)) if head.starts_with("xxxx")));
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn a_missing_program_is_a_spawn_failure() {
        let failure = BotProcess::spawn(&["/no/such/bot".to_owned()]).err();
        assert!(matches!(failure, Some(BotFailure::Spawn { .. })));
    }

    #[test]
    fn a_silent_program_times_out() {
        let mut bot = BotProcess::spawn(&["sleep".to_owned(), "5".to_owned()]).expect("sleep runs");
        let limit = Duration::from_millis(50);
        assert_eq!(bot.receive(limit), Err(BotFailure::Timeout(limit)));
    }
}
