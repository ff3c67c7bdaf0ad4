// Package origin reads the origin of a URL — scheme, host and port — the
// one way the URL policy of runs (runtime/urlpolicy.go) and the allow
// list of cogflow.hcl (runtime/config) both need.
package origin

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Of returns the normalized origin of an absolute http(s) URL,
// "scheme://host:port" with the default port written out, or why raw is
// not one. Spaces, control characters and backslashes are refused rather
// than normalized: browsers read them differently from net/url.
func Of(raw string) (string, error) {
	for _, r := range raw {
		if r <= ' ' || r == '\\' || r == 0x7f {
			return "", fmt.Errorf("it holds a space, a control character or a backslash")
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("it is not a URL")
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		if scheme == "" {
			return "", fmt.Errorf("it is not an absolute URL")
		}
		return "", fmt.Errorf("its scheme is %s:", scheme)
	}
	host := u.Hostname()
	if host == "" || u.Opaque != "" {
		return "", fmt.Errorf("it has no host")
	}
	// Checked before lower-casing, which maps some non-ASCII letters to
	// ASCII ones.
	if !validHost(host) {
		return "", fmt.Errorf("its host %q is not an ASCII host name (write a name in other scripts in its xn-- form) or an IP address", truncate(host, 40))
	}
	host = strings.ToLower(host)
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return scheme + "://" + net.JoinHostPort(host, port), nil
}

// validHost accepts an ASCII host name (letters, digits, '-', '_', '.')
// or an IP address; net/url lets through hosts such as "]" that a browser
// would not open as they are. A host in other scripts must be written in
// its xn-- form: Go lower-cases "İ" to "i" while Chromium's IDNA mapping
// makes it "xn--i-9bb", so comparing the Unicode form could allow a host
// the browser would not visit (FuzzOf found it).
func validHost(host string) bool {
	if strings.Contains(host, ":") {
		return net.ParseIP(host) != nil
	}
	for _, r := range host {
		if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// CheckEntry says why entry is not an allow-list entry: "*", an http(s)
// origin, or one whose host is "*." and a domain (every subdomain).
func CheckEntry(entry string) error {
	if entry == "*" {
		return nil
	}
	u, err := url.Parse(strings.Replace(entry, "://*.", "://", 1))
	if err != nil || u.Opaque != "" {
		return fmt.Errorf("not an origin such as \"https://example.com\"")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("only http:// and https:// origins can be allowed")
	}
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return fmt.Errorf("an origin is a scheme, a host and a port, with no user, path, query or fragment")
	}
	if _, err := Of(strings.Replace(entry, "://*.", "://", 1)); err != nil {
		return fmt.Errorf("not an origin: %v", err)
	}
	return nil
}

// truncate cuts s to n characters for a message.
func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
