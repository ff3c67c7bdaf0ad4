package adbtest

import (
	"reflect"
	"testing"
)

func TestLex(t *testing.T) {
	tests := []struct {
		line string
		want []string // words; operators as <op>
		err  bool
	}{
		{"input tap 10 20", []string{"input", "tap", "10", "20"}, false},
		{"input text 'hello world'", []string{"input", "text", "hello world"}, false},
		{`echo "a \"b\" \$c \d"`, []string{"echo", `a "b" $c \d`}, false},
		{`echo 'it'\''s'`, []string{"echo", "it's"}, false},
		{`echo it'\''s`, nil, true},
		{`echo a\ b`, []string{"echo", "a b"}, false},
		{"echo ''", []string{"echo", ""}, false},
		{"a|b&&c||d;e&f", []string{"a", "<|>", "b", "<&&>", "c", "<||>", "d", "<;>", "e", "<&>", "f"}, false},
		{"cat x 2>/dev/null >out 2>&1 >>log <in", []string{"cat", "x", "<2>>", "/dev/null", "<>>", "out", "<2>&1>", "<>>>", "log", "<<>", "in"}, false},
		{"echo 12>x", []string{"echo", "12", "<>>", "x"}, false},
		{"echo 'a|b;c'", []string{"echo", "a|b;c"}, false},
		{"echo hi # comment", []string{"echo", "hi"}, false},
		{"echo a#b", []string{"echo", "a#b"}, false},
		{"echo 'Zoë Ångström'", []string{"echo", "Zoë Ångström"}, false},
		{"echo 'open", nil, true},
		{`echo "open`, nil, true},
	}
	for _, tt := range tests {
		toks, err := lex(tt.line)
		if (err != nil) != tt.err {
			t.Errorf("lex(%q) error = %v, want error %v", tt.line, err, tt.err)
			continue
		}
		var got []string
		for _, tk := range toks {
			if tk.op {
				got = append(got, "<"+tk.text+">")
			} else {
				got = append(got, tk.text)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("lex(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestParseCommandLine(t *testing.T) {
	tests := []struct {
		line string
		want string // pipelines rendered by render
		err  bool
	}{
		{"", "", false},
		{"echo a", "[echo a]", false},
		{"uiautomator dump /sdcard/d.xml && cat /sdcard/d.xml", "[uiautomator dump /sdcard/d.xml]&& [cat /sdcard/d.xml]", false},
		{"dumpsys window | grep mCurrentFocus", "[dumpsys window | grep mCurrentFocus]", false},
		{"cat f 2>/dev/null > g; echo x", "[cat f >g 2>null]; [echo x]", false},
		{"| grep x", "", true},
		{"echo x |", "", true},
		{"echo >", "", true},
		{"echo x &&", "", true},
		{"echo x;", "[echo x];", false},
	}
	for _, tt := range tests {
		pls, err := parseCommandLine(tt.line)
		if (err != nil) != tt.err {
			t.Errorf("parseCommandLine(%q) error = %v, want error %v", tt.line, err, tt.err)
			continue
		}
		if got := render(pls); got != tt.want {
			t.Errorf("parseCommandLine(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func render(pls []*pipeline) string {
	s := ""
	for i, p := range pls {
		if i > 0 {
			s += " "
		}
		s += "["
		for j, st := range p.stages {
			if j > 0 {
				s += " | "
			}
			for k, a := range st.args {
				if k > 0 {
					s += " "
				}
				s += a
			}
			if st.stdout != "" {
				s += " >" + st.stdout
			}
			if st.errNull {
				s += " 2>null"
			}
		}
		s += "]" + p.op
	}
	return s
}
