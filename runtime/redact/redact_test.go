package redact

import (
	"strings"
	"sync"
	"testing"
)

func TestSet(t *testing.T) {
	tests := []struct {
		name    string
		add     []string
		derive  []string
		in      string
		want    string
		learned bool // whether the derived texts are held afterwards
	}{
		{"nil set", nil, nil, "pw", "pw", false},
		{"added later", []string{"pw"}, nil, "a pw b", "a [secret] b", false},
		{"derived", []string{"Hunter-Two"}, []string{"hunter-two"}, "x hunter-two y", "x [secret] y", true},
		{"short derived piece left out", []string{"Hunter-Two"}, []string{"Hu"}, "Hu", "Hu", false},
		{"short secret kept", []string{"7"}, nil, "a7", "a[secret]", false},
		{"JSON form", []string{`a"b`}, nil, `"a\"b"`, `"[secret]"`, false},
		{"cut by an ellipsis", []string{"0123456789-token"}, nil, `key: "x 012345…"`, `key: "x [secret]…"`, false},
		{"short beginning before an ellipsis kept", []string{"0123456789-token"}, nil, "a 012…", "a 012…", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s *Set
			if tc.add != nil {
				s = New()
				_ = s.String("warm the replacer up") // then grow the set
				s.Add(tc.add...)
				s.Derive(tc.derive...)
			}
			if got := s.String(tc.in); got != tc.want {
				t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
			}
			for _, d := range tc.derive {
				if s.Holds(d) != tc.learned {
					t.Errorf("Holds(%q) = %v, want %v", d, !tc.learned, tc.learned)
				}
			}
		})
	}
}

func TestWriter(t *testing.T) {
	var b strings.Builder
	s := New("pw-1")
	w := s.Writer(&b)
	s.Derive("PW-1")
	n, err := w.Write([]byte("[1] textbox(text: \"PW-1\") pw-1\n"))
	if err != nil || n != 31 || b.String() != "[1] textbox(text: \"[secret]\") [secret]\n" {
		t.Errorf("wrote %d, %v: %q", n, err, b.String())
	}
}

// TestSetConcurrent: a set grows while others redact with it (go test
// -race finds a shared slice sorted in place).
func TestSetConcurrent(t *testing.T) {
	s := New("seed-secret")
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for j := range 200 {
				s.Add(strings.Repeat("x", i+1) + string(rune('a'+j%26)) + "-secret")
				if got := s.String("the seed-secret"); got != "the [secret]" {
					t.Errorf("String = %q", got)
					return
				}
			}
		})
	}
	wg.Wait()
}
