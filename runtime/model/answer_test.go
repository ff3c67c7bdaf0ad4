package model

import (
	"strings"
	"testing"
)

func TestCleanText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"A dormant volcano.", "A dormant volcano."},
		{"  Answer: A dormant volcano.\n", "A dormant volcano."},
		{"**Answer:** A dormant volcano.", "A dormant volcano."},
		{"Final answer: yes", "yes"},
		{"Result: the team won", "Result: the team won"}, // only an answer prefix goes
		{"```\nA dormant volcano.\n```", "A dormant volcano."},
		{"```text\nAnswer: \"A dormant volcano.\"\n```", "A dormant volcano."},
		{`"A dormant volcano."`, "A dormant volcano."},
		{"“A dormant volcano.”", "A dormant volcano."},
		{"'Kibo'", "Kibo"},
		{`"Kibo" and "Mawenzi"`, `"Kibo" and "Mawenzi"`}, // quotes inside: kept whole
		{"<think>The user wants a summary…</think>\nA dormant volcano.", "A dormant volcano."},
		{"Answers vary by season.", "Answers vary by season."}, // not a prefix
		{"line one\nline two", "line one\nline two"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := cleanText(tt.in); got != tt.want {
			t.Errorf("cleanText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseIndex(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{`{"index": 3}`, 3, true},
		{`{"index": 3, "reason": "title matches"}`, 3, true},
		{`{"index": "3"}`, 3, true},
		{"```json\n{\"index\": 12}\n```", 12, true},
		{"3", 3, true},
		{" [3] ", 3, true},
		{"#3", 3, true},
		{"3.", 3, true},
		{"Answer: 3", 3, true},
		{`{"idx": 3}`, 0, false},
		{`{"index": 2.5}`, 0, false},
		{"-1", 0, false},
		{"3 or 4", 0, false},
		{"the third one", 0, false},
		{"[3] link \"Mont Blanc\"", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseIndex(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseIndex(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"42", 42, true},
		{"-3.5", -3.5, true},
		{"1,234.5", 1234.5, true},
		{"1,234,567", 1234567, true},
		{"$12", 12, true},
		{"-$12.50", -12.5, true},
		{"€ 7", 7, true},
		{"12 USD", 12, true},
		{"EUR 12", 12, true},
		{"15%", 15, true},
		{"1e3", 1000, true},
		{".5", 0.5, true},
		{"Answer: 42", 42, true},
		{"`42`", 42, true},
		{`{"number": 42}`, 42, true},
		{`{"answer": "1,200"}`, 1200, true},
		{"1,5", 0, false},     // a decimal comma or a thousands separator: ambiguous
		{"12,34.5", 0, false}, // not thousands groups
		{"forty-two", 0, false},
		{"The total is 42", 0, false},
		{"42 nights", 0, false},
		{"1.2.3", 0, false},
		{"--4", 0, false},
		{"-$-4", 0, false},
		{"Infinity", 0, false},
		{"NaN", 0, false},
		{"1e999", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseNumber(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseNumber(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestFindSpan(t *testing.T) {
	screen := []string{"Kilimanjaro is a dormant   volcano in Tanzania.", "Mont Blanc", "İstanbul"}
	tests := []struct{ in, want string }{
		{"Kilimanjaro", "Kilimanjaro"},
		{"dormant volcano", "dormant volcano"},
		{"DORMANT\nVOLCANO in tanzania", "dormant volcano in Tanzania"},
		{"mont blanc", "Mont Blanc"},
		{"ISTANBUL", "ISTANBUL"}, // "İ" lower-cases to one byte less: the model's spelling
		{"Kibo", ""},
		{"Blanc Mont", ""},
		{"   ", ""},
	}
	for _, tt := range tests {
		got, ok := findSpan(screen, tt.in)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("findSpan(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

func TestInvalidMessage(t *testing.T) {
	e := &invalid{answer: strings.Repeat("x", 200), reason: "that text is not on the screen"}
	if got := e.Error(); len(got) > 150 || !strings.Contains(got, "…\", but that text") {
		t.Errorf("%q", got)
	}
	if got := (&invalid{answer: "12", reason: "there are only 8 candidates"}).Error(); got != "the model answered 12, but there are only 8 candidates" {
		t.Errorf("%q", got)
	}
}
