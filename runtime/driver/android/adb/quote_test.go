package adb

import "testing"

func TestQuoteShell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "''"},
		{"hello", "hello"},
		{"/sdcard/window_dump.xml", "/sdcard/window_dump.xml"},
		{"a%sb", "a%sb"},
		{"hello world", "'hello world'"},
		{"it's", `'it'\''s'`},
		{"$HOME", "'$HOME'"},
		{"a;rm -rf /", "'a;rm -rf /'"},
		{`back\slash`, `'back\slash'`},
		{"Zoë", "'Zoë'"},
		{"*", "'*'"},
		{"\"q\"", `'"q"'`},
	}
	for _, tt := range tests {
		if got := QuoteShell(tt.in); got != tt.want {
			t.Errorf("QuoteShell(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
