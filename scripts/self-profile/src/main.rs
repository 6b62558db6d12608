//! Reads a `-Zself-profile` recording (its path without `.mm_profdata`) and prints the
//! self time of every query, summed by what it worked on: each query key (a definition
//! path) is put in a group by its shape, so the thousand instances of one generated
//! construct add up to one line. Time spent writing the recording itself is left out.

use std::collections::HashMap;
use std::path::Path;

use analyzeme::{ProfilingData, Timestamp};

/// One query or activity: its thread, when it ran, and what it is.
struct Interval {
    thread: u32,
    start: std::time::SystemTime,
    end: std::time::SystemTime,
    label: String,
    key: String,
}

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!(
            "usage: toolc-self-profile RECORDING (the .mm_profdata path without its extension)"
        );
        std::process::exit(2);
    };
    let data = match ProfilingData::new(Path::new(&path)) {
        Ok(data) => data,
        Err(e) => {
            eprintln!("cannot read the recording {path}: {e}");
            std::process::exit(1);
        }
    };
    let mut intervals: Vec<Interval> = data
        .iter_full()
        .filter_map(|e| match e.payload.timestamp() {
            Some(Timestamp::Interval { start, end }) => Some(Interval {
                thread: e.thread_id,
                start,
                end,
                label: e.label.to_string(),
                key: e.additional_data.join(","),
            }),
            _ => None,
        })
        .collect();
    // Parents before their children: by thread, then start, the longer first.
    intervals.sort_by(|a, b| {
        (a.thread, a.start, std::cmp::Reverse(a.end)).cmp(&(
            b.thread,
            b.start,
            std::cmp::Reverse(b.end),
        ))
    });
    let seconds = |i: &Interval| {
        i.end
            .duration_since(i.start)
            .map_or(0.0, |d| d.as_secs_f64())
    };
    let mut own: Vec<f64> = intervals.iter().map(seconds).collect();
    let mut open: Vec<usize> = Vec::new();
    for (i, interval) in intervals.iter().enumerate() {
        while let Some(&parent) = open.last() {
            let p = &intervals[parent];
            if p.thread == interval.thread && p.end > interval.start {
                break;
            }
            open.pop();
        }
        if let Some(&parent) = open.last() {
            own[parent] -= seconds(interval);
        }
        open.push(i);
    }
    let mut groups: HashMap<String, f64> = HashMap::new();
    let mut total = 0.0;
    for (interval, own) in intervals.iter().zip(own) {
        if interval.label == "self_profile_alloc_query_strings" {
            continue;
        }
        total += own;
        *groups.entry(group(interval)).or_default() += own;
    }
    let mut groups: Vec<_> = groups.into_iter().collect();
    groups.sort_by(|a, b| b.1.total_cmp(&a.1));
    println!("{total:>8.2} s  in all (self time of every query and activity)");
    for (name, seconds) in groups.iter().take(30) {
        println!("{seconds:>8.2} s  {name}");
    }
}

/// What an interval worked on: a named construct of generated code when its key says so,
/// otherwise the query or activity itself.
fn group(interval: &Interval) -> String {
    let key = shape(&interval.key);
    let ends = |suffixes: &[&str]| suffixes.iter().any(|s| key.ends_with(s));
    let named = if key.is_empty() {
        None
    } else if key.contains("deserialize") || key.contains("::_[N]::") || key.contains("::_::") {
        Some("serde's derived impls (Deserialize, and Serialize where derived)")
    } else if ends(&[
        "::fmt",
        "::clone",
        "::eq",
        "::cmp",
        "::partial_cmp",
        "::hash",
        "::assert_receiver_is_total_eq",
    ]) {
        Some("the built-in derives (Debug, Clone, PartialEq, Ord, Hash, ...)")
    } else if key.contains("::bind") {
        Some("the dispatcher's bind")
    } else if key.contains("check_arguments") {
        Some("the two check_arguments")
    } else if key.contains("DESCRIPTORS") || key.contains("_POLICY") {
        Some("the descriptors")
    } else if key.contains("__schemas") {
        Some("the validation tables")
    } else if key.contains("__search") {
        Some("the search index")
    } else if key.contains("::toolboxes::") && !key.contains("{{impl}}") {
        // The trait, its methods, the types and the other items of a toolbox's module.
        Some("the toolbox modules' declarations (the trait and its methods, type definitions)")
    } else {
        None
    };
    match named {
        Some(name) => name.to_owned(),
        None => format!("{} (rustc)", interval.label),
    }
}

/// A key with every run of digits replaced by `N`: `tool_3_14` and `tool_0_2` are one shape.
fn shape(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut digits = false;
    for c in key.chars() {
        if c.is_ascii_digit() {
            if !digits {
                out.push('N');
            }
            digits = true;
        } else {
            out.push(c);
            digits = false;
        }
    }
    out
}
