package main

import "testing"

func TestSafeTarget(t *testing.T) {
	cases := []struct {
		target string
		safe   []string
		want   bool
	}{
		{"http://127.0.0.1:8088/", []string{"http://127.0.0.1:8088"}, true},
		{"http://127.0.0.1:8088/form", []string{"http://127.0.0.1:8088/"}, true},
		{"http://127.0.0.1:8088/shop/cart", []string{"http://127.0.0.1:8088/shop"}, true},
		{"http://127.0.0.1:8088/shop", []string{"http://127.0.0.1:8088/shop/"}, true},
		{"http://127.0.0.1:8088/shopping", []string{"http://127.0.0.1:8088/shop"}, false},
		{"http://127.0.0.1:8089/", []string{"http://127.0.0.1:8088"}, false},
		{"https://127.0.0.1:8088/", []string{"http://127.0.0.1:8088"}, false},
		{"http://example.com/", nil, false},
		{"http://example.com/", []string{"example.com"}, false}, // not an absolute URL
		// The browser resolves dot segments (also escaped, also behind a
		// backslash) before it loads the page.
		{"http://127.0.0.1:8088/shop/../admin/delete", []string{"http://127.0.0.1:8088/shop"}, false},
		{"http://127.0.0.1:8088/shop/%2e%2e/admin", []string{"http://127.0.0.1:8088/shop"}, false},
		{"http://127.0.0.1:8088/shop/..\\admin", []string{"http://127.0.0.1:8088/shop"}, false},
		{"http://127.0.0.1:8088/shop/./cart/../list", []string{"http://127.0.0.1:8088/shop"}, true},
		{"http://127.0.0.1:8088.evil.com/", []string{"http://127.0.0.1:8088"}, false},
		{"http://127.0.0.1:8088@evil.com/", []string{"http://127.0.0.1:8088"}, false},
	}
	for _, c := range cases {
		if got := safeTarget(c.target, c.safe); got != c.want {
			t.Errorf("safeTarget(%q, %q) = %v, want %v", c.target, c.safe, got, c.want)
		}
	}
}
