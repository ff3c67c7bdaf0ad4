package funcs

import (
	"strings"
	"testing"
	"time"
	"unicode"
)

// The fuzz targets feed text from a page (anything) to the functions that
// read values out of it: none may panic, and what they return must be
// consistent with what they were given.

func FuzzReformatDate(f *testing.F) {
	for _, seed := range [][3]string{
		{"8:22 AM", "h:mm a", "HH:mm"},
		{"March 4, 2024", "MMMM D, YYYY", "MM/DD/YYYY"},
		{"13:05 PM", "h:mm a", "HH:mm"},
		{"10 o'clock", "H 'o''clock'", "HH:00"},
		{"20240305", "YYYYMMDD", "D MMM YY"},
		{"", "'", "a"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, str, from, to string) {
		got, err := call(t, "reformat_date", args(s(str), s(from), s(to)))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "reformat_date: ") {
				t.Errorf("error %q does not name the function", err)
			}
			return
		}
		// What was written reads back with the layout it was written
		// with, and gives the same text again.
		again, err := call(t, "reformat_date", args(got, s(to), s(to)))
		if err != nil {
			if strings.Contains(err.Error(), "does not match") || strings.Contains(err.Error(), "does not give") {
				return // a layout whose output cannot be read back unambiguously ("a" next to a literal "m")
			}
			t.Fatalf("reformat_date(%q, %q, %q) = %q, which does not read back: %v", str, from, to, got.AsString(), err)
		}
		if again.AsString() != got.AsString() {
			t.Errorf("reformat_date(%q, %q, %q) = %q, read back and written again %q", str, from, to, got.AsString(), again.AsString())
		}
	})
}

func FuzzParseOrdinal(f *testing.F) {
	for _, seed := range []string{"3rd", "third", "3", "last", "second to last", "twenty-first", "the 5th", "0", "-1", "1st from the end"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, str string) {
		got, err := call(t, "parse_ordinal", args(s(str)))
		if err != nil {
			return
		}
		n, _ := got.AsBigFloat().Int64()
		if n == 0 {
			t.Errorf("parse_ordinal(%q) = 0: positions count from 1 or -1", str)
		}
		// Counting from the end needs words that say so; a sign never does.
		lower := strings.ToLower(str)
		fromEnd := false
		for _, w := range []string{"last", "end", "bottom", "penultimate", "final"} {
			fromEnd = fromEnd || strings.Contains(lower, w)
		}
		if (n < 0) != fromEnd {
			t.Errorf("parse_ordinal(%q) = %d", str, n)
		}
		if strings.ContainsAny(str, "-–−") && n > 0 && !strings.ContainsFunc(str, unicode.IsLetter) {
			t.Errorf("parse_ordinal(%q) = %d: a signed number is not an ordinal", str, n)
		}
	})
}

func FuzzSplitList(f *testing.F) {
	for _, seed := range []string{"A, B and C", "A, B, C", "A or B", "A, B, or C", `"x", 'y'`, "", " , ", "“”"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, str string) {
		got, err := call(t, "split_list", args(s(str)))
		if err != nil {
			return
		}
		if _, none := splitList(str); got.LengthInt() == 0 && !none {
			t.Fatalf("split_list(%q) gave no item and no error", str)
		}
		for _, item := range got.AsValueSlice() {
			v := item.AsString()
			if v == "" || v != strings.TrimSpace(v) {
				t.Errorf("split_list(%q) has the item %q", str, v)
			}
		}
	})
}

// FuzzReformatDateAgainstTime writes a moment with Go's time package in
// several page styles and checks that reformat_date reads each back to the
// moment Go's time package writes in the target layout: a differential
// test for the silently wrong values (an hour off at noon, a day shifted).
func FuzzReformatDateAgainstTime(f *testing.F) {
	f.Add(int64(0))
	f.Add(int64(951782400 + 12*3600)) // 2000-02-29 12:00
	f.Add(int64(1709596920))          // 2024-03-04 23:22
	f.Fuzz(func(t *testing.T, sec int64) {
		// Years 1969 to 2068, where YY reads unambiguously.
		const lo, span = -31536000, 3155760000
		sec = lo + (sec%span+span)%span
		at := time.Unix(sec, 0).UTC()
		styles := []struct{ goLayout, layout string }{
			{"January 2, 2006 3:04 PM", "MMMM D, YYYY h:mm a"},
			{"Jan 2 06 03:04:05 pm", "MMM D YY hh:mm:ss a"},
			{"2.1.2006 15:04", "D.M.YYYY H:mm"},
			{"01/02/2006 15:04:05", "MM/DD/YYYY HH:mm:ss"},
			{"20060102", "YYYYMMDD"},
			{"Monday, 2 Jan 2006", "dddd, D MMM YYYY"},
			{"Mon 02 January 06", "ddd DD MMMM YY"},
		}
		for _, st := range styles {
			page := at.Format(st.goLayout)
			to, want := "YYYY-MM-DD HH:mm:ss", at.Format("2006-01-02 15:04:05")
			if !strings.Contains(st.layout, "h") && !strings.Contains(st.layout, "H") {
				to, want = "YYYY-MM-DD", at.Format("2006-01-02")
			} else if !strings.Contains(st.layout, "ss") {
				want = at.Truncate(time.Minute).Format("2006-01-02 15:04:05")
			}
			got, err := call(t, "reformat_date", args(s(page), s(st.layout), s(to)))
			if err != nil {
				t.Fatalf("reformat_date(%q, %q, %q): %v", page, st.layout, to, err)
			}
			if got.AsString() != want {
				t.Errorf("reformat_date(%q, %q, %q) = %q, want %q", page, st.layout, to, got.AsString(), want)
			}
		}
	})
}
