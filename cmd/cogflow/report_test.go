package main

import (
	"strings"
	"testing"
)

func TestReportFormat(t *testing.T) {
	tests := []struct {
		flag, file, want, wantErr string
	}{
		{"", "", "junit", ""},
		{"", "out.xml", "junit", ""},
		{"", "OUT.HTML", "html", ""},
		{"", "r.htm", "html", ""},
		{"html", "r.xml", "html", ""}, // the flag wins
		{"", "r.json", "", "cannot tell the format"},
		{"pdf", "", "", "--format=pdf: want one of junit, html"},
	}
	for _, tt := range tests {
		got, err := reportFormat(tt.flag, tt.file)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("reportFormat(%q, %q) error %v, want %q", tt.flag, tt.file, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("reportFormat(%q, %q) = %q, %v; want %q", tt.flag, tt.file, got, err, tt.want)
		}
	}
}

func TestReportUsageErrors(t *testing.T) {
	root := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"report", "--dir", root}, "name at least one run or batch"},
		{[]string{"report", "20261125T101335.337Z-ffff", "--dir", root}, "20261125T101335.337Z-ffff"},
		{[]string{"report", "batch-20261125T101335.337Z-ffff", "--dir", root}, "no batch batch-20261125T101335.337Z-ffff"},
		{[]string{"report", "x", "--format", "pdf", "--dir", root}, "--format=pdf"},
		{[]string{"run", "nothing.cog", "--report", "r.pdf"}, "--report: r.pdf: cannot tell the format"},
	}
	for _, tt := range tests {
		r := runCLI(t, "", tt.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, r.code, r.stderr, exitUsage, tt.want)
		}
	}
}
