package funcs

import (
	"strings"
	"testing"
)

func TestReformatDate(t *testing.T) {
	tests := []struct {
		str, from, to, want string
	}{
		// 12-hour to 24-hour and back, 1- and 2-digit hours.
		{"8:22 AM", "h:mm a", "HH:mm", "08:22"},
		{"08:22 AM", "h:mm a", "HH:mm", "08:22"},
		{"12:05 AM", "h:mm a", "HH:mm", "00:05"},
		{"12:05 PM", "h:mm a", "HH:mm", "12:05"},
		{"1:05 pm", "h:mm a", "H:mm", "13:05"},
		{"11:59 p.m.", "h:mm a", "HH:mm:ss", "23:59:00"},
		{"23:59", "HH:mm", "h:mm a", "11:59 PM"},
		{"00:00", "HH:mm", "hh:mm a", "12:00 AM"},
		{"7:05", "H:mm", "HH:mm", "07:05"},
		{"07:05:09", "HH:mm:ss", "h:mm:ss a", "7:05:09 AM"},
		{"8:22AM", "h:mma", "HH:mm", "08:22"},
		{"8:22\u202fPM", "h:mm a", "HH:mm", "20:22"}, // toLocaleTimeString's narrow no-break space
		{"8:22\u00a0pm", "h:mm a", "HH:mm", "20:22"},
		{"9:30", "h:mm", "hh:mm", "09:30"}, // a 12-hour hour may be re-padded without knowing AM/PM
		{"13:00 PM", "HH:mm a", "HH:mm", "13:00"},
		// Dates: month names, numbers, 1- and 2-digit fields, years.
		{"March 4, 2024", "MMMM D, YYYY", "MM/DD/YYYY", "03/04/2024"},
		{"march 4, 2024", "MMMM D, YYYY", "YYYY-MM-DD", "2024-03-04"},
		{"4 Mar 2024", "D MMM YYYY", "MMMM D", "March 4"},
		{"2024-12-31", "YYYY-MM-DD", "D/M/YY", "31/12/24"},
		{"1/2/99", "M/D/YY", "YYYY-MM-DD", "1999-01-02"},
		{"1/2/68", "M/D/YY", "YYYY", "2068"},
		{"01/02/2024", "M/D/YYYY", "MMM D", "Jan 2"},
		{"20240305", "YYYYMMDD", "DD.MM.YYYY", "05.03.2024"},
		{"Feb 29", "MMM D", "MM-DD", "02-29"}, // no year: February may have 29 days
		{"29 February 2024", "D MMMM YYYY", "YYYY-MM-DD", "2024-02-29"},
		// Weekdays and days with their ordinal suffix.
		{"Monday, March 4, 2024", "dddd, MMMM D, YYYY", "YYYY-MM-DD", "2024-03-04"},
		{"2024-03-04", "YYYY-MM-DD", "ddd D MMM", "Mon 4 Mar"},
		{"2024-03-03", "YYYY-MM-DD", "dddd", "Sunday"},
		{"tue", "ddd", "dddd", "Tuesday"},
		{"March 1st, 2024", "MMMM Do, YYYY", "M/D/YYYY", "3/1/2024"},
		{"22ND of June", "Do 'of' MMMM", "MM-DD", "06-22"},
		{"2024-06-11", "YYYY-MM-DD", "MMMM Do", "June 11th"},
		{"2024-06-23", "YYYY-MM-DD", "Do", "23rd"},
		{"2024-06-02", "YYYY-MM-DD", "Do", "2nd"},
		// Literal text, quoting and white space.
		{"4 Mar 2024 at 8:22 PM", "D MMM YYYY 'at' h:mm a", "YYYY-MM-DD HH:mm", "2024-03-04 20:22"},
		{"  4   Mar 2024 ", "D MMM YYYY", "D MMM YYYY", "4 Mar 2024"},
		{"10 o'clock", "H 'o''clock'", "HH:00", "10:00"},
		{"it's 10", "'it''s' H", "HH", "10"},
		{"Date: 2024-03-04", "'Date:' YYYY-MM-DD", "D MMMM YYYY", "4 March 2024"},
		{"2024-03-04", "YYYY-MM-DD", "'Day' D 'of' MMMM", "Day 4 of March"},
	}
	for _, tc := range tests {
		got, err := call(t, "reformat_date", args(s(tc.str), s(tc.from), s(tc.to)))
		if err != nil {
			t.Errorf("reformat_date(%q, %q, %q): %v", tc.str, tc.from, tc.to, err)
			continue
		}
		if got.AsString() != tc.want {
			t.Errorf("reformat_date(%q, %q, %q) = %q, want %q", tc.str, tc.from, tc.to, got.AsString(), tc.want)
		}
	}
}

// TestReformatDateErrors: every text that does not say exactly one date
// or time in the layout fails, naming the text and the layout.
func TestReformatDateErrors(t *testing.T) {
	tests := []struct {
		str, from, to, want string
	}{
		{"13:05 PM", "h:mm a", "HH:mm", `"13:05 PM" does not match the layout "h:mm a": hour 13 is not between 1 and 12`},
		{"0:05 AM", "h:mm a", "HH:mm", "hour 0 is not between 1 and 12"},
		{"24:00", "HH:mm", "HH:mm", "hour 24 is not between 0 and 23"},
		{"8:60", "H:mm", "HH:mm", "minute 60 is not between 0 and 59"},
		{"8:5", "H:mm", "HH:mm", `expected 2-digit minutes (mm) at "5"`},
		{"8:22", "h:mm a", "HH:mm", `expected " " at the end of the text`},
		{"8:22 ", "h:mma", "HH:mm", "expected AM or PM (a) at the end of the text"},
		{"8:22 XM", "h:mm a", "HH:mm", `expected AM or PM (a) at "XM"`},
		{"13:00 AM", "HH:mm a", "HH:mm", "the hour 13 does not agree with AM"},
		{"08:22 PM", "HH:mm a", "HH:mm", "the hour 8 does not agree with PM"},
		{"8:22", "h:mm", "HH:mm", "the output layout writes the hour of the day, but the text has a 12-hour hour without AM or PM"},
		{"8:22", "h:mm", "h:mm a", "the output layout writes AM or PM, which the text does not give"},
		{"March 4", "MMMM D", "YYYY-MM-DD", "the output layout writes the year, which the text does not give"},
		{"2024", "YYYY", "MM", "writes the month"},
		{"March", "MMMM", "D", "writes the day"},
		{"March 4", "MMMM D", "HH:mm", "writes the hour"},
		{"March 4", "MMMM D", "ss", "writes the seconds"},
		{"Marz 4", "MMMM D", "MM/DD", `expected a month name (MMMM) at "Marz 4"`},
		{"Mayo 4", "MMM D", "MM/DD", `expected a 3-letter month name (MMM) at "Mayo 4"`},
		{"Sept 3", "MMM D", "M/D", `expected a 3-letter month name (MMM) at "Sept 3"`},
		{"February 30, 2024", "MMMM D, YYYY", "YYYY-MM-DD", "February has no day 30"},
		{"29 Feb 2023", "D MMM YYYY", "YYYY-MM-DD", "February has no day 29"},
		{"31/04/2024", "DD/MM/YYYY", "YYYY-MM-DD", "April has no day 31"},
		{"13/01/2024", "MM/DD/YYYY", "YYYY-MM-DD", "month 13 is not between 1 and 12"},
		{"2024-03-04", "DD/MM/YYYY", "YYYY-MM-DD", `"2024-03-04" does not match the layout "DD/MM/YYYY": expected "/" at "24-03-04"`},
		{"2024-03-04 extra", "YYYY-MM-DD", "YYYY", `unexpected " extra" after the end of the layout`},
		{"24-03-04", "YYYY-MM-DD", "YYYY", `expected a 4-digit year (YYYY) at "24-03-04"`},
		{"", "YYYY", "YYYY", "expected a 4-digit year (YYYY) at the end of the text"},
		{"March 3 03", "MMMM D MM", "D", "the text gives the month twice, as 3 and 3"}, // agreeing is fine: see below
		{"March 4 04", "MMMM D MM", "D", "the text gives the month twice, as 3 and 4"},
		{"8:22 AM 20", "h:mm a HH", "HH", "the text gives the hour twice, as 20 and 8"},
		{"2024-03-04", "YYYY-MM-DD", "MD", `layout "MD": M is directly followed by D`},
		{"Tuesday, March 4, 2024", "dddd, MMMM D, YYYY", "YYYY-MM-DD", "March 4, 2024 is a Monday, not a Tuesday"},
		{"Mon", "ddd", "YYYY", "writes the year"},
		{"March 4", "MMMM D", "dddd", "writes the weekday (it needs the year, month and day)"},
		{"March 4st", "MMMM Do", "MM", `expected a day with its suffix (4th) (Do) at "4st"`},
		{"Funday", "dddd", "ddd", "expected a weekday name (dddd)"},
		{"8:22", "'h:mm", "HH", "unclosed quote"},
		{"8:22", "H:mm", " ", "the layout is empty"},
	}
	for _, tc := range tests {
		got, err := call(t, "reformat_date", args(s(tc.str), s(tc.from), s(tc.to)))
		if strings.HasPrefix(tc.want, "the text gives the month twice, as 3 and 3") {
			// The same month twice is no contradiction.
			if err != nil || got.AsString() != "3" {
				t.Errorf("reformat_date(%q, %q, %q) = %#v, %v; want \"3\"", tc.str, tc.from, tc.to, got, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("reformat_date(%q, %q, %q) = %q, want an error containing %q", tc.str, tc.from, tc.to, got.AsString(), tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "reformat_date: ") {
			t.Errorf("reformat_date(%q, %q, %q): error %q, want it to contain %q", tc.str, tc.from, tc.to, err, tc.want)
		}
	}
}

// TestReformatDateRoundTrip: writing a date with a layout and reading it
// back with the same layout gives the same text, for every hour and a
// spread of days: no field is shifted or wrapped on the way.
func TestReformatDateRoundTrip(t *testing.T) {
	layouts := []string{"h:mm a", "hh:mm:ss a", "HH:mm", "H:mm"}
	for h := 0; h < 24; h++ {
		src := pad("HH", h) + ":07"
		for _, l := range layouts {
			mid, err := call(t, "reformat_date", args(s(src), s("HH:mm"), s(l)))
			if err != nil {
				t.Fatalf("%s → %s: %v", src, l, err)
			}
			back, err := call(t, "reformat_date", args(mid, s(l), s("HH:mm")))
			if err != nil || back.AsString() != src {
				t.Errorf("%s → %q (%s) → %#v, %v", src, mid.AsString(), l, back, err)
			}
		}
	}
	for _, d := range []string{"2024-01-01", "2023-02-28", "2024-02-29", "1999-12-31", "2000-07-09",
		"2024-01-11", "2024-01-12", "2024-01-13", "2024-01-22", "2024-01-23", "2024-01-31"} {
		for _, l := range []string{"MMMM D, YYYY", "D MMM YY", "M/D/YYYY", "DD.MM.YYYY", "YYYYMMDD",
			"dddd, MMMM Do, YYYY", "ddd Do MMM YYYY"} {
			mid, err := call(t, "reformat_date", args(s(d), s("YYYY-MM-DD"), s(l)))
			if err != nil {
				t.Fatalf("%s → %s: %v", d, l, err)
			}
			back, err := call(t, "reformat_date", args(mid, s(l), s("YYYY-MM-DD")))
			if err != nil || back.AsString() != d {
				t.Errorf("%s → %q (%s) → %#v, %v", d, mid.AsString(), l, back, err)
			}
		}
	}
}
