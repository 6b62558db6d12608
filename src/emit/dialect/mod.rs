//! Per-provider schema transforms and tool lists.
