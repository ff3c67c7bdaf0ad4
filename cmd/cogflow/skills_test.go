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
	}
	for _, c := range cases {
		if got := safeTarget(c.target, c.safe); got != c.want {
			t.Errorf("safeTarget(%q, %q) = %v, want %v", c.target, c.safe, got, c.want)
		}
	}
}
