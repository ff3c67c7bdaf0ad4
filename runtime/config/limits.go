package config

// MaxFileSize bounds a configuration file: a few settings take a few
// hundred bytes. (At 1 MiB, one expression of 260,000 operators took the
// HCL parser 12 s.) readFile reads at most this much, and decode checks
// the size and the nesting (internal/hclguard) before the HCL parser sees
// the text.
const MaxFileSize = 64 << 10
