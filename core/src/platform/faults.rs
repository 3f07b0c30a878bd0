//! Panics as errors, and fault points for the panic and crash tests: named places in the work (a job starting, a message being composed,
//! each hand-off between jobs) where a test makes the process panic, or die at once as a crash or the OOM killer
//! would (SIGKILL). A point is named by its place and a key saying for what (a job kind, a recipient), so a test arms
//! it for its own data only. Outside the `testing` feature a point compiles to nothing.
//!
//! Armed in the process (`arm`), or for a child process by `OUTREACH_TEST_FAULTS`: `place:key:fault[@n]` entries
//! separated by `;`, where fault is `panic`, `kill` or `delay=MS` (the point blocks its thread that long, as a slow
//! file or server would), `key` may be `*`, and `@n` trips on the n-th hit (default the
//! first). This is the one variable read outside the settings, and only in test builds.

/// The text a panic was raised with (`panic!("...")` carries a `&str` or a `String`).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| text.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

/// What an armed point does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    Panic,
    Kill,
    /// Blocks the thread for this many milliseconds.
    Delay(u64),
}

/// A fault point. Does nothing unless a test armed it.
#[inline(always)]
pub fn point(place: &str, key: &str) {
    #[cfg(feature = "testing")]
    armed::trip(place, key);
    #[cfg(not(feature = "testing"))]
    let _ = (place, key);
}

/// A fault point whose key costs something to make: `key` is called only in test builds.
#[inline(always)]
pub fn point_with(place: &str, key: impl FnOnce() -> String) {
    #[cfg(feature = "testing")]
    armed::trip(place, &key());
    #[cfg(not(feature = "testing"))]
    let _ = (place, key);
}

#[cfg(feature = "testing")]
pub use armed::arm;

#[cfg(feature = "testing")]
mod armed {
    use std::sync::{LazyLock, Mutex};

    use super::Fault;

    struct Armed {
        place: String,
        key: String,
        fault: Fault,
        /// Hits left before it trips (1: the next one).
        hits_left: u32,
    }

    static ARMED: LazyLock<Mutex<Vec<Armed>>> = LazyLock::new(|| {
        let from_env = std::env::var("OUTREACH_TEST_FAULTS").unwrap_or_default();
        Mutex::new(from_env.split(';').filter_map(parse).collect())
    });

    fn parse(entry: &str) -> Option<Armed> {
        let mut parts = entry.trim().splitn(3, ':');
        let (place, key, fault) = (parts.next()?, parts.next()?, parts.next()?);
        let (fault, hits) = fault.split_once('@').unwrap_or((fault, "1"));
        let fault = match fault {
            "panic" => Fault::Panic,
            "kill" => Fault::Kill,
            delay => Fault::Delay(delay.strip_prefix("delay=")?.parse().ok()?),
        };
        Some(Armed {
            place: place.to_string(),
            key: key.to_string(),
            fault,
            hits_left: hits.parse().ok()?,
        })
    }

    /// Arms `place` for `key` (`*`: any) to fault on its next hit.
    pub fn arm(place: &str, key: &str, fault: Fault) {
        ARMED.lock().expect("never poisoned").push(Armed {
            place: place.to_string(),
            key: key.to_string(),
            fault,
            hits_left: 1,
        });
    }

    pub(super) fn trip(place: &str, key: &str) {
        let fault = {
            let mut armed = ARMED.lock().expect("never poisoned");
            let Some(at) = armed
                .iter()
                .position(|armed| armed.place == place && (armed.key == "*" || armed.key == key))
            else {
                return;
            };
            armed[at].hits_left -= 1;
            if armed[at].hits_left > 0 {
                return;
            }
            armed.remove(at).fault
        };
        match fault {
            Fault::Panic => panic!("fault injected at {place} for {key}"),
            Fault::Delay(ms) => std::thread::sleep(std::time::Duration::from_millis(ms)),
            Fault::Kill => {
                // SAFETY: kill(2) on our own process id; nothing is shared with the call.
                unsafe {
                    libc::kill(libc::getpid(), libc::SIGKILL);
                }
            }
        }
    }
}
