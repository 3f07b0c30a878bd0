//! Per-mailbox pacing (issue 19, the design's "rate-limited workers use governor"): each sender of a campaign sends
//! at a steady pace instead of bursting hundreds of messages in a second from one mailbox, which providers read as
//! spam. A `governor` limiter per sender allows one message per gap: by default the sender's daily cap spread over
//! the campaign's sending window, never shorter than `sending.min_gap_seconds`. A batch sends what its sender's
//! limiter admits now and hands the rest back to the queue for when the next message is admitted, plus a little
//! jitter, so no worker sleeps on a pace. The database counters stay the exact limits; pacing holds per process (two
//! worker processes pace a sender twice as fast).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use governor::middleware::NoOpMiddleware;
use governor::nanos::Nanos;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};

use crate::SharedClock;
use crate::platform::config::SendingSettings;

/// The limiter's clock is the application's, so tests move both together.
#[derive(Debug, Clone)]
struct AppClock(SharedClock);

impl governor::clock::Clock for AppClock {
    type Instant = Nanos;

    fn now(&self) -> Nanos {
        Nanos::from(self.0.now_ms().max(0) as u64 * 1_000_000)
    }
}

type Limiter = RateLimiter<NotKeyed, InMemoryState, AppClock, NoOpMiddleware<Nanos>>;

/// Each sender's limiter with the gap it was made for.
type Limiters = HashMap<i64, (Duration, Arc<Limiter>)>;

/// What a sender may send now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Admitted {
    /// How many of the messages asked for may go now.
    pub now: usize,
    /// When the next one may go (ms, with jitter), when some were held back.
    pub next_at: Option<i64>,
}

/// This process's pace per sender.
#[derive(Debug, Clone)]
pub struct Pacer {
    clock: AppClock,
    enabled: bool,
    min_gap: Duration,
    limiters: Arc<Mutex<Limiters>>,
}

impl Pacer {
    pub fn new(settings: &SendingSettings, clock: SharedClock) -> Self {
        Pacer {
            clock: AppClock(clock),
            enabled: settings.pacing,
            min_gap: Duration::from_secs(settings.min_gap_seconds),
            limiters: Arc::default(),
        }
    }

    /// A pacer that admits everything (pacing turned off).
    pub fn off(clock: SharedClock) -> Self {
        Pacer {
            clock: AppClock(clock),
            enabled: false,
            min_gap: Duration::ZERO,
            limiters: Arc::default(),
        }
    }

    /// The gap between two messages of a sender with `daily_cap` whose campaign sends `open_minutes` a day; none
    /// when pacing is off.
    pub fn gap(&self, daily_cap: i32, open_minutes: i32) -> Option<Duration> {
        if !self.enabled {
            return None;
        }
        let spread = Duration::from_secs(open_minutes.max(1) as u64 * 60) / daily_cap.max(1) as u32;
        Some(spread.max(self.min_gap).max(Duration::from_millis(1)))
    }

    /// Admits up to `wanted` messages of sender `config_id` at one per `gap`.
    pub fn admit(&self, config_id: i64, gap: Option<Duration>, wanted: usize) -> Admitted {
        let Some(gap) = gap else {
            return Admitted {
                now: wanted,
                next_at: None,
            };
        };
        let limiter = self.limiter(config_id, gap);
        let mut now = 0;
        while now < wanted {
            match limiter.check() {
                Ok(()) => now += 1,
                Err(not_until) => {
                    let next_ms = (u64::from(not_until.earliest_possible()) / 1_000_000) as i64;
                    return Admitted {
                        now,
                        next_at: Some(next_ms + jitter_ms(gap)),
                    };
                }
            }
        }
        Admitted { now, next_at: None }
    }

    /// The sender's limiter; a new one when its gap changed (another campaign's window or a new daily cap).
    fn limiter(&self, config_id: i64, gap: Duration) -> Arc<Limiter> {
        let mut limiters = self.limiters.lock().expect("pacing lock");
        match limiters.get(&config_id) {
            Some((known, limiter)) if *known == gap => limiter.clone(),
            _ => {
                let quota = Quota::with_period(gap).expect("a gap of at least a millisecond");
                let limiter = Arc::new(RateLimiter::direct_with_clock(quota, self.clock.clone()));
                limiters.insert(config_id, (gap, limiter.clone()));
                limiter
            }
        }
    }
}

/// Up to a tenth of the gap, so paced senders do not tick like clockwork.
fn jitter_ms(gap: Duration) -> i64 {
    let tenth = (gap.as_millis() / 10) as u64;
    if tenth == 0 {
        return 0;
    }
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the system's random source");
    (u64::from_le_bytes(bytes) % (tenth + 1)) as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::clock::ManualClock;

    fn pacer(clock: Arc<ManualClock>, min_gap_seconds: u64) -> Pacer {
        let settings = SendingSettings {
            pacing: true,
            min_gap_seconds,
            ..SendingSettings::default()
        };
        Pacer::new(&settings, clock)
    }

    #[test]
    fn the_daily_cap_is_spread_over_the_window_never_below_the_minimum_gap() {
        let clock = ManualClock::at(1_000_000);
        let pacer = pacer(clock.clone(), 20);
        // 200 a day over 10 hours: one every 3 minutes.
        assert_eq!(pacer.gap(200, 600), Some(Duration::from_secs(180)));
        // 10,000 a day over 10 hours would be one every 3.6 s: the minimum gap holds.
        assert_eq!(pacer.gap(10_000, 600), Some(Duration::from_secs(20)));
        assert_eq!(Pacer::off(clock).gap(200, 600), None);
    }

    #[test]
    fn a_sender_sends_one_message_per_gap_and_says_when_the_next_may_go() {
        let clock = ManualClock::at(1_000_000);
        let pacer = pacer(clock.clone(), 20);
        let gap = pacer.gap(200, 600);
        let first = pacer.admit(7, gap, 25);
        assert_eq!(first.now, 1);
        let next = first.next_at.unwrap();
        // The next one after three minutes, plus at most 18 s of jitter.
        assert!((1_180_000..=1_198_000).contains(&next), "{next}");
        // Nothing more in the meantime, for any batch of that sender; another sender has its own pace.
        clock.advance(60_000);
        assert_eq!(pacer.admit(7, gap, 5).now, 0);
        assert_eq!(pacer.admit(8, gap, 5).now, 1);
        clock.advance(120_000);
        assert_eq!(pacer.admit(7, gap, 5).now, 1);
        // Pacing off admits everything at once.
        let all = Pacer::off(clock).admit(7, None, 25);
        assert_eq!((all.now, all.next_at), (25, None));
    }
}
