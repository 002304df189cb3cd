//! The `tinylingo` binary: everything is in the library; see `tinylingo --help`.
//!
//! # Why the binary defines the C `main` itself
//!
//! The hook is a fresh process in front of every prompt, so process start-up is most of what it
//! costs. A normal Rust `main` first runs std's runtime set-up, and on Linux most of that is for
//! the stack-overflow message: glibc opens, reads and parses `/proc/self/maps` to find the main
//! thread's stack, then std installs an alternate signal stack and SIGSEGV/SIGBUS handlers. That
//! is some twenty system calls and a fifth of the instructions a Rust no-op executes, measured
//! at over a tenth of a whole process start on our machines, and the hook needs none of it.
//!
//! So the binary is `no_main`: the C runtime calls [`main`] below directly. It keeps the parts
//! of std's set-up that matter here: file descriptors 0–2 are made to exist (so that a file the program
//! opens never lands on a closed stdout), stdout is flushed at the end, and a panic outside the
//! hook still prints its message and exits 101. SIGPIPE is set to its default, as in other Unix
//! tools: `tinylingo list | head` ends quietly instead of failing on a closed pipe; the hook
//! ignores it instead ([`tinylingo::hook::run`]), since it must exit 0 whatever its reader does. What is lost is the "has overflowed its stack"
//! message: a stack overflow still ends the process, by SIGSEGV. `std::env::args` does not depend
//! on std's `main`; it works the same.
#![no_main]

use std::ffi::{c_char, c_int};
use std::io::Write;

/// The process entry point, called by the C runtime.
#[no_mangle]
pub extern "C" fn main(_argc: c_int, _argv: *const *const c_char) -> c_int {
    #[cfg(unix)]
    unix_setup();
    // Unwinding out of this `extern "C"` function would abort; end the way std's `main` does.
    let code = std::panic::catch_unwind(tinylingo::cli::main).unwrap_or(101);
    let _ = std::io::stdout().flush();
    c_int::from(code)
}

#[cfg(unix)]
fn unix_setup() {
    // SAFETY: plain libc calls with valid arguments, made before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        let mut fds = [0, 1, 2].map(|fd| libc::pollfd { fd, events: 0, revents: 0 });
        if libc::poll(fds.as_mut_ptr(), 3, 0) >= 0 {
            for fd in fds {
                // `open` takes the lowest free descriptor: the closed one, as they go in order.
                if fd.revents & libc::POLLNVAL != 0 {
                    libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
                }
            }
        }
    }
}
