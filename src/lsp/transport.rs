//! The connection over standard input and output. `lsp-server`'s own
//! stdio transport ends at the first message that is not valid JSON-RPC;
//! this one answers it as the protocol says (JSON-RPC's `ParseError`, or
//! `InvalidRequest` for JSON that is no message) and reads on.

use std::io::{self, BufRead, Write};
use std::thread;

use crossbeam_channel::{bounded, unbounded};
use lsp_server::{Connection, Message};

/// One frame's body: `Ok(None)` at the end of input, `Err` for a header
/// that cannot be read (the frame is skipped).
fn read_frame(input: &mut dyn BufRead) -> io::Result<Option<Result<Vec<u8>, String>>> {
    let mut size = None;
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let header = line.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            if size.is_none() {
                // A blank line between frames, or a frame without a length.
                continue;
            }
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.trim().eq_ignore_ascii_case("Content-Length") {
                match value.trim().parse::<usize>() {
                    Ok(n) => size = Some(n),
                    Err(_) => return Ok(Some(Err(format!("bad Content-Length: {value:?}")))),
                }
            }
        }
    }
    let mut body = vec![0; size.unwrap_or(0)];
    input.read_exact(&mut body)?;
    Ok(Some(Ok(body)))
}

/// What to do with one frame's body: the message, or the error answer.
pub(crate) fn decode(body: &[u8]) -> Result<Message, String> {
    let error = |id: &serde_json::Value, code: i32, message: String| {
        serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
            .to_string()
    };
    let value: serde_json::Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            return Err(error(
                &serde_json::Value::Null,
                -32700,
                format!("parse error: {e}"),
            ))
        }
    };
    let id = value.get("id").cloned().unwrap_or(serde_json::Value::Null);
    serde_json::from_value::<Message>(value)
        .map_err(|e| error(&id, -32600, format!("invalid request: {e}")))
}

/// Serves the protocol on standard input and `out`: `serve` runs on its
/// own thread with the connection, standard input is read on another, and
/// this thread writes every message (the command line holds standard
/// output). Returns `serve`'s result when it ends.
pub(crate) fn stdio(
    mut out: &mut dyn Write,
    serve: impl FnOnce(Connection) -> Result<(), String> + Send + 'static,
) -> Result<(), String> {
    let (writer_tx, writer_rx) = unbounded::<Message>();
    let (raw_tx, raw_rx) = unbounded::<String>();
    let (reader_tx, reader_rx) = bounded::<Message>(0);
    // Left running when the server ends: standard input may never close.
    thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        while let Ok(Some(frame)) = read_frame(&mut input) {
            let answer = match frame {
                Ok(body) => match decode(&body) {
                    Ok(m) => {
                        let exit = matches!(&m, Message::Notification(n) if n.method == "exit");
                        if reader_tx.send(m).is_err() || exit {
                            return;
                        }
                        continue;
                    }
                    Err(answer) => answer,
                },
                Err(why) => serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": why}}).to_string(),
            };
            if raw_tx.send(answer).is_err() {
                return;
            }
        }
    });
    let server = thread::spawn(move || {
        serve(Connection {
            sender: writer_tx,
            receiver: reader_rx,
        })
    });
    let mut raw_open = true;
    loop {
        let written = if raw_open {
            crossbeam_channel::select! {
                recv(writer_rx) -> m => match m {
                    Ok(m) => m.write(&mut out),
                    Err(_) => break,
                },
                recv(raw_rx) -> r => if let Ok(text) = r {
                    write!(out, "Content-Length: {}\r\n\r\n{text}", text.len())
                } else {
                    raw_open = false;
                    Ok(())
                },
            }
        } else {
            match writer_rx.recv() {
                Ok(m) => m.write(&mut out),
                Err(_) => break,
            }
        };
        if written.and_then(|()| out.flush()).is_err() {
            break;
        }
    }
    server
        .join()
        .unwrap_or_else(|_| Err("the server thread failed".to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_frames_are_answered_and_skipped() {
        let input = b"Content-Length: 5\r\n\r\n{oops\r\nContent-Length: 40\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"initialized\"}";
        let mut r = &input[..];
        let first = read_frame(&mut r).unwrap().unwrap().unwrap();
        let answer = decode(&first).unwrap_err();
        assert!(
            answer.contains("\"code\":-32700") && answer.contains("\"id\":null"),
            "{answer}"
        );
        let second = read_frame(&mut r).unwrap().unwrap().unwrap();
        assert!(
            matches!(decode(&second), Ok(Message::Notification(n)) if n.method == "initialized")
        );
        assert!(read_frame(&mut r).unwrap().is_none());
        let answer = decode(br#"{"jsonrpc":"2.0","id":7,"params":3}"#).unwrap_err();
        assert!(
            answer.contains("\"code\":-32600") && answer.contains("\"id\":7"),
            "{answer}"
        );
    }
}
