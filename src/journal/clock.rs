//! The local time the journal stamps entries with and names its files by.
//!
//! On Unix this asks the C library (`localtime_r`), which reads `TZ` or the one file
//! `/etc/localtime` names. `jiff::Zoned::now()` gave the same answer but, to learn the system
//! zone's name, walked the whole zoneinfo folder (some 600 folders and files read per call):
//! measured, that walk was the largest single cost of the after-response hook. Elsewhere jiff
//! is used.

/// The local time now, `YYYY-MM-DD HH:MM:SS`.
pub fn now() -> String {
    local_now().unwrap_or_else(|| jiff::Zoned::now().strftime("%Y-%m-%d %H:%M:%S").to_string())
}

#[cfg(unix)]
fn local_now() -> Option<String> {
    // SAFETY: `time(NULL)` only returns the time; `localtime_r` writes into the `tm` we own
    // and is the thread-safe form (it calls `tzset` itself when the zone is unknown).
    let tm = unsafe {
        let t = libc::time(std::ptr::null_mut());
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&t, &mut tm).is_null() {
            return None;
        }
        tm
    };
    Some(format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
        i64::from(tm.tm_year) + 1900,
        tm.tm_mon + 1,
        tm.tm_mday,
        tm.tm_hour,
        tm.tm_min,
        tm.tm_sec.min(59)
    ))
}

#[cfg(not(unix))]
fn local_now() -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn agrees_with_jiff() {
        // Both read the same zone; a second may pass between the two calls.
        for _ in 0..3 {
            let ours = super::now();
            let theirs = jiff::Zoned::now().strftime("%Y-%m-%d %H:%M:%S").to_string();
            if ours == theirs {
                return;
            }
        }
        panic!("localtime_r and jiff disagree");
    }
}
