package funcs

import (
	"net/url"
	"strings"
	"testing"
)

func TestURLQuery(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Kilimanjaro", "Kilimanjaro"},
		{"mount kenya", "mount+kenya"},
		{"a&b=c", "a%26b%3Dc"},
		{"#top", "%23top"},
		{"100%", "100%25"},
		{"a+b", "a%2Bb"},
		{"x/y?z", "x%2Fy%3Fz"},
		{"École Zürich", "%C3%89cole+Z%C3%BCrich"},
		{"東京", "%E6%9D%B1%E4%BA%AC"},
		{"😀", "%F0%9F%98%80"},
		{"*-._", "*-._"},             // what a browser's form leaves as is
		{"~'!()", "%7E%27%21%28%29"}, // what it escapes (Go's QueryEscape keeps ~, escapes *)
		{"line\nbreak\ttab", "line%0Abreak%09tab"},
		{"", ""},
	}
	for _, tc := range tests {
		got, err := call(t, "urlquery", args(s(tc.in)))
		if err != nil {
			t.Fatalf("urlquery(%q): %v", tc.in, err)
		}
		if got.AsString() != tc.want {
			t.Errorf("urlquery(%q) = %q, want %q", tc.in, got.AsString(), tc.want)
		}
		// A server reads back exactly the text.
		back, err := url.ParseQuery("q=" + got.AsString())
		if err != nil || back.Get("q") != tc.in {
			t.Errorf("urlquery(%q) decodes to %q (%v)", tc.in, back.Get("q"), err)
		}
	}
}

func TestWithQuery(t *testing.T) {
	tests := []struct{ url, name, value, want, err string }{
		{url: "http://127.0.0.1:8088/wiki", name: "q", value: "mount kenya", want: "http://127.0.0.1:8088/wiki?q=mount+kenya"},
		{url: "http://h/wiki?lang=en", name: "q", value: "a&b", want: "http://h/wiki?lang=en&q=a%26b"},
		{url: "http://h/wiki?", name: "q", value: "x", want: "http://h/wiki?q=x"},
		{url: "http://h/wiki?a=1&", name: "q", value: "x", want: "http://h/wiki?a=1&q=x"},
		{url: "https://h/s#results", name: "q", value: "#1 = ü", want: "https://h/s?q=%231+%3D+%C3%BC#results"},
		{url: "http://h/s", name: "search term", value: "x", want: "http://h/s?search+term=x"},
		{url: "/wiki", name: "q", value: "x", err: "not an absolute http or https address"},
		{url: "ftp://h/x", name: "q", value: "x", err: "not an absolute http or https address"},
		{url: "http://h/x", name: "", value: "x", err: "name is empty"},
		{url: "http://h/%zz", name: "q", value: "x", err: "is not an address"},
	}
	for _, tc := range tests {
		got, err := call(t, "with_query", args(s(tc.url), s(tc.name), s(tc.value)))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "with_query: ") {
				t.Errorf("with_query(%q, %q, %q): error %v, want %q", tc.url, tc.name, tc.value, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("with_query(%q, %q, %q): %v", tc.url, tc.name, tc.value, err)
		}
		if got.AsString() != tc.want {
			t.Errorf("with_query(%q, %q, %q) = %q, want %q", tc.url, tc.name, tc.value, got.AsString(), tc.want)
		}
		u, _ := url.Parse(got.AsString())
		if v := u.Query().Get(tc.name); v != tc.value {
			t.Errorf("with_query(%q, %q, %q): the server reads %q", tc.url, tc.name, tc.value, v)
		}
	}
}
