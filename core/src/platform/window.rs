//! Sending windows (issue 19; every commercial peer has them, the spec has no screen): days of the week and two
//! times in a time zone, when mail may go. The settings (the instance's default), campaigns, sending and follow-ups
//! all read them, so they live on the ground; where each recipient is, and so which zone applies, is sending's
//! (`sending::window`). A message due outside the window waits for it to open; AI-optimised follow-up timing picks
//! an hour inside it.

use std::str::FromStr;

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, TimeZone, Timelike, Weekday};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

/// Minutes in a day: a window may end at 24:00.
const DAY_MINUTES: i32 = 24 * 60;

/// The days of the week in the API's words, Monday first (bit 0 is Monday).
const DAY_NAMES: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/// When a campaign may send: on `days`, from `start` to `end` (minutes after local midnight), in the recipient's
/// local time; `time_zone` is the campaign's own, used when a recipient's is unknown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendingWindow {
    /// Bit 0 Monday ... bit 6 Sunday.
    pub days: u8,
    pub start_minute: i32,
    pub end_minute: i32,
    pub time_zone: Tz,
}

/// Why a window is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WindowError {
    #[error("Choose at least one day to send on")]
    NoDays,
    #[error("Unknown day: {0} (use mon, tue, wed, thu, fri, sat or sun)")]
    UnknownDay(String),
    #[error("Times are written HH:MM, from 00:00 to 24:00")]
    Time,
    #[error("The sending window must end after it starts")]
    Empty,
    #[error("Unknown time zone: {0}")]
    TimeZone(String),
}

/// The window as the campaign API reads and writes it: `{"days": ["mon", ...], "start": "08:00", "end": "18:00",
/// "timeZone": "Europe/Helsinki"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SendingWindowView {
    /// Days of the week it sends on: mon, tue, wed, thu, fri, sat, sun.
    pub days: Vec<String>,
    /// Local time it starts sending, HH:MM.
    pub start: String,
    /// Local time it stops sending, HH:MM (24:00 is the end of the day).
    pub end: String,
    /// The IANA time zone used for recipients whose own is unknown.
    pub time_zone: String,
}

/// A window as stored in a campaign's columns.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct WindowColumns {
    pub window_days: i32,
    pub window_start: i32,
    pub window_end: i32,
    pub window_time_zone: String,
}

impl WindowColumns {
    pub fn window(&self) -> SendingWindow {
        SendingWindow::from_columns(
            self.window_days,
            self.window_start,
            self.window_end,
            &self.window_time_zone,
        )
    }
}

impl Default for WindowColumns {
    fn default() -> Self {
        SendingWindow::always().columns()
    }
}

impl SendingWindow {
    pub fn columns(&self) -> WindowColumns {
        WindowColumns {
            window_days: i32::from(self.days),
            window_start: self.start_minute,
            window_end: self.end_minute,
            window_time_zone: self.time_zone.name().to_string(),
        }
    }

    /// Every day, all day, in UTC: a campaign with no restriction.
    pub fn always() -> Self {
        SendingWindow {
            days: 0b111_1111,
            start_minute: 0,
            end_minute: DAY_MINUTES,
            time_zone: Tz::UTC,
        }
    }

    /// A window from its stored columns; a stored value that no longer reads (it never should) sends always.
    pub fn from_columns(days: i32, start_minute: i32, end_minute: i32, time_zone: &str) -> Self {
        let window = SendingWindow {
            days: (days & 0b111_1111) as u8,
            start_minute,
            end_minute,
            time_zone: Tz::from_str(time_zone).unwrap_or(Tz::UTC),
        };
        window
            .validated()
            .unwrap_or_else(|_| SendingWindow::always())
    }

    fn validated(self) -> Result<Self, WindowError> {
        if self.days == 0 {
            return Err(WindowError::NoDays);
        }
        if !(0..=DAY_MINUTES).contains(&self.start_minute)
            || !(0..=DAY_MINUTES).contains(&self.end_minute)
        {
            return Err(WindowError::Time);
        }
        if self.end_minute <= self.start_minute {
            return Err(WindowError::Empty);
        }
        Ok(self)
    }

    pub fn view(&self) -> SendingWindowView {
        SendingWindowView {
            days: DAY_NAMES
                .iter()
                .enumerate()
                .filter(|(bit, _)| self.days & (1 << bit) != 0)
                .map(|(_, name)| name.to_string())
                .collect(),
            start: clock_text(self.start_minute),
            end: clock_text(self.end_minute),
            time_zone: self.time_zone.name().to_string(),
        }
    }

    /// Whether it sends every day, all day.
    pub fn is_always(&self) -> bool {
        self.days == 0b111_1111 && self.start_minute == 0 && self.end_minute == DAY_MINUTES
    }

    /// Minutes a day it is open.
    pub fn open_minutes_a_day(&self) -> i32 {
        self.end_minute - self.start_minute
    }

    fn sends_on(&self, day: Weekday) -> bool {
        self.days & (1 << day.num_days_from_monday()) != 0
    }

    /// The first moment at or after `at` (ms) when the window is open in `zone`.
    pub fn next_open(&self, at: i64, zone: Tz) -> i64 {
        self.first_between(at, zone, self.start_minute, self.end_minute)
            .unwrap_or(at)
    }

    /// The first moment at or after `at` inside the window during local hour `hour` (0 to 23) in `zone`; when that
    /// hour is outside the window, the first moment the window is open.
    pub fn next_at_hour(&self, at: i64, zone: Tz, hour: u32) -> i64 {
        let from = self.start_minute.max(hour as i32 * 60);
        let to = self.end_minute.min(hour as i32 * 60 + 60);
        if from >= to {
            return self.next_open(at, zone);
        }
        self.first_between(at, zone, from, to)
            .unwrap_or_else(|| self.next_open(at, zone))
    }

    /// The first moment at or after `at` on a sending day between `from` and `to` minutes after local midnight.
    fn first_between(&self, at: i64, zone: Tz, from: i32, to: i32) -> Option<i64> {
        let local = zone.timestamp_millis_opt(at).single()?.naive_local();
        // Eight days: the window opens within a week, and a day's late hours may belong to the day before.
        (-1..8).find_map(|offset| {
            let date = local.date() + Duration::days(offset);
            if !self.sends_on(date.weekday()) {
                return None;
            }
            let opens = utc_ms(zone, at_minute(date, from));
            let closes = utc_ms(zone, at_minute(date, to));
            if at < opens {
                Some(opens)
            } else if at < closes {
                Some(at)
            } else {
                None
            }
        })
    }
}

impl SendingWindowView {
    /// The window this view describes, or why it is refused.
    pub fn parse(&self) -> Result<SendingWindow, WindowError> {
        let mut days = 0u8;
        for day in &self.days {
            let wanted = day.trim().to_ascii_lowercase();
            let bit = DAY_NAMES
                .iter()
                .position(|name| *name == wanted)
                .ok_or_else(|| WindowError::UnknownDay(day.clone()))?;
            days |= 1 << bit;
        }
        let time_zone = Tz::from_str(self.time_zone.trim())
            .map_err(|_| WindowError::TimeZone(self.time_zone.clone()))?;
        SendingWindow {
            days,
            start_minute: parse_clock(&self.start)?,
            end_minute: parse_clock(&self.end)?,
            time_zone,
        }
        .validated()
    }
}

/// Reads the configuration's compact form, "mon-fri 08:00-18:00" or "mon,wed,sat 09:30-17:00" (in UTC; a
/// campaign sets its own zone).
impl FromStr for SendingWindow {
    type Err = WindowError;

    fn from_str(text: &str) -> Result<Self, WindowError> {
        let (days_text, hours) = text.trim().split_once(' ').ok_or(WindowError::Time)?;
        let (start, end) = hours.trim().split_once('-').ok_or(WindowError::Time)?;
        let mut days = Vec::new();
        for part in days_text.split(',') {
            match part.split_once('-') {
                Some((first, last)) => {
                    let index = |name: &str| {
                        DAY_NAMES
                            .iter()
                            .position(|day| *day == name.trim())
                            .ok_or_else(|| WindowError::UnknownDay(name.to_string()))
                    };
                    let (first, last) = (index(first)?, index(last)?);
                    if last < first {
                        return Err(WindowError::NoDays);
                    }
                    days.extend(DAY_NAMES[first..=last].iter().map(|day| day.to_string()));
                }
                None => days.push(part.to_string()),
            }
        }
        SendingWindowView {
            days,
            start: start.to_string(),
            end: end.to_string(),
            time_zone: "UTC".into(),
        }
        .parse()
    }
}

/// The local hour of a moment in a zone.
pub fn local_hour(at: i64, zone: Tz) -> Option<u32> {
    zone.timestamp_millis_opt(at)
        .single()
        .map(|time| time.hour())
}

fn at_minute(date: NaiveDate, minute: i32) -> NaiveDateTime {
    date.and_hms_opt(0, 0, 0).expect("midnight exists") + Duration::minutes(i64::from(minute))
}

/// A local time as a moment: the earlier of an ambiguous time (clocks going back), and for a time that does not
/// exist (clocks going forward) the moment the clocks jumped over it.
fn utc_ms(zone: Tz, local: NaiveDateTime) -> i64 {
    if let Some(time) = zone.from_local_datetime(&local).earliest() {
        return time.timestamp_millis();
    }
    let mut later = local;
    for _ in 0..4 {
        later += Duration::minutes(30);
        if let Some(time) = zone.from_local_datetime(&later).earliest() {
            return time.timestamp_millis();
        }
    }
    DateTime::<chrono::Utc>::from_naive_utc_and_offset(local, chrono::Utc).timestamp_millis()
}

fn parse_clock(text: &str) -> Result<i32, WindowError> {
    let (hours, minutes) = text.trim().split_once(':').ok_or(WindowError::Time)?;
    let digits = |part: &str| part.len() == 2 && part.bytes().all(|byte| byte.is_ascii_digit());
    if !digits(hours) || !digits(minutes) {
        return Err(WindowError::Time);
    }
    let (hours, minutes): (i32, i32) = (
        hours.parse().map_err(|_| WindowError::Time)?,
        minutes.parse().map_err(|_| WindowError::Time)?,
    );
    let total = hours * 60 + minutes;
    if minutes >= 60 || total > DAY_MINUTES {
        return Err(WindowError::Time);
    }
    Ok(total)
}

fn clock_text(minute: i32) -> String {
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(text: &str) -> i64 {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .timestamp_millis()
    }

    fn iso(ms: i64) -> String {
        crate::platform::clock::iso(ms)
    }

    fn weekdays_8_to_18() -> SendingWindow {
        "mon-fri 08:00-18:00".parse().unwrap()
    }

    #[test]
    fn a_message_due_at_night_waits_for_the_morning_in_the_recipients_zone() {
        let window = weekdays_8_to_18();
        // Tuesday 03:00 in Helsinki (01:00 UTC) waits until 08:00 there (06:00 UTC).
        let due = ms("2026-11-24T01:00:00Z");
        let helsinki = Tz::Europe__Helsinki;
        assert_eq!(
            iso(window.next_open(due, helsinki)),
            "2026-11-24T06:00:00.000Z"
        );
        // The same moment is Monday 19:00 in Chicago: past the window, so Tuesday 08:00 there (14:00 UTC).
        let chicago = Tz::America__Chicago;
        assert_eq!(
            iso(window.next_open(due, chicago)),
            "2026-11-24T14:00:00.000Z"
        );
        // Inside the window a message goes at once.
        let noon = ms("2026-11-24T10:00:00Z");
        assert_eq!(window.next_open(noon, helsinki), noon);
    }

    #[test]
    fn weekends_and_the_closing_time_move_to_the_next_sending_day() {
        let window = weekdays_8_to_18();
        // Friday 18:00 exactly is closed: Monday 08:00.
        let friday_evening = ms("2026-11-27T18:00:00Z");
        assert_eq!(
            iso(window.next_open(friday_evening, Tz::UTC)),
            "2026-11-30T08:00:00.000Z"
        );
        let saturday = ms("2026-11-28T12:00:00Z");
        assert_eq!(
            iso(window.next_open(saturday, Tz::UTC)),
            "2026-11-30T08:00:00.000Z"
        );
        let always = SendingWindow::always();
        assert_eq!(always.next_open(saturday, Tz::UTC), saturday);
        assert!(always.is_always() && !window.is_always());
    }

    #[test]
    fn opening_times_hold_across_daylight_saving_changes() {
        let window = weekdays_8_to_18();
        // Europe moves its clocks back on Sunday 2026-10-25: Monday 08:00 in Helsinki is 06:00 UTC (UTC+2).
        let sunday = ms("2026-10-25T12:00:00Z");
        assert_eq!(
            iso(window.next_open(sunday, Tz::Europe__Helsinki)),
            "2026-10-26T06:00:00.000Z"
        );
        // The Friday before, 08:00 was 05:00 UTC (UTC+3).
        let friday_night = ms("2026-10-23T00:00:00Z");
        assert_eq!(
            iso(window.next_open(friday_night, Tz::Europe__Helsinki)),
            "2026-10-23T05:00:00.000Z"
        );
        // A window opening at 02:30 on the night the clocks jump from 02:00 to 03:00 (US, 2026-03-08) opens at 03:00.
        let night: SendingWindow = "sun 02:30-05:00".parse().unwrap();
        let before = ms("2026-03-08T06:00:00Z");
        assert_eq!(
            iso(night.next_open(before, Tz::America__Chicago)),
            "2026-03-08T08:00:00.000Z"
        );
    }

    #[test]
    fn a_chosen_hour_is_the_first_such_hour_inside_the_window() {
        let window = weekdays_8_to_18();
        let zone = Tz::Europe__Helsinki;
        // Due Tuesday 09:30 local; the recipient reads mail at 14:00: Tuesday 14:00 local (12:00 UTC).
        let due = ms("2026-11-24T07:30:00Z");
        assert_eq!(
            iso(window.next_at_hour(due, zone, 14)),
            "2026-11-24T12:00:00.000Z"
        );
        // Due inside the chosen hour: at once.
        let inside = ms("2026-11-24T12:20:00Z");
        assert_eq!(window.next_at_hour(inside, zone, 14), inside);
        // Past the hour today: tomorrow at that hour.
        let late = ms("2026-11-24T14:00:00Z");
        assert_eq!(
            iso(window.next_at_hour(late, zone, 14)),
            "2026-11-25T12:00:00.000Z"
        );
        // An hour outside the window (a 23:00 reader) falls back to the window's opening.
        assert_eq!(
            window.next_at_hour(due, zone, 23),
            window.next_open(due, zone)
        );
    }

    #[test]
    fn windows_are_read_and_refused_in_plain_words() {
        let view = SendingWindowView {
            days: vec!["mon".into(), "WED".into()],
            start: "09:30".into(),
            end: "24:00".into(),
            time_zone: "America/New_York".into(),
        };
        let window = view.parse().unwrap();
        assert_eq!(
            (window.days, window.start_minute, window.end_minute),
            (0b101, 570, 1440)
        );
        assert_eq!(
            window.view(),
            SendingWindowView {
                days: vec!["mon".into(), "wed".into()],
                ..view.clone()
            }
        );
        let refuse = |change: &dyn Fn(&mut SendingWindowView)| {
            let mut wrong = view.clone();
            change(&mut wrong);
            wrong.parse().unwrap_err().to_string()
        };
        assert_eq!(
            refuse(&|w| w.days.clear()),
            "Choose at least one day to send on"
        );
        assert_eq!(
            refuse(&|w| w.days.push("funday".into())),
            "Unknown day: funday (use mon, tue, wed, thu, fri, sat or sun)"
        );
        assert_eq!(
            refuse(&|w| w.start = "9:30".into()),
            "Times are written HH:MM, from 00:00 to 24:00"
        );
        assert_eq!(
            refuse(&|w| w.end = "24:30".into()),
            "Times are written HH:MM, from 00:00 to 24:00"
        );
        assert_eq!(
            refuse(&|w| w.end = "09:30".into()),
            "The sending window must end after it starts"
        );
        assert_eq!(
            refuse(&|w| w.time_zone = "Mars/Olympus".into()),
            "Unknown time zone: Mars/Olympus"
        );
        assert_eq!(
            "sat,sun 10:00-12:00".parse::<SendingWindow>().unwrap().days,
            0b110_0000
        );
        assert!("fri-mon 10:00-12:00".parse::<SendingWindow>().is_err());
    }

    #[test]
    fn the_local_hour_is_the_zones() {
        assert_eq!(
            local_hour(ms("2026-11-24T07:30:00Z"), Tz::Europe__Helsinki),
            Some(9)
        );
    }
}
