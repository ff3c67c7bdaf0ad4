package goal

import (
	"net/url"
	"strings"
)

// secretQuery are the query parameters whose values are credentials: a
// URL shown in a goal or a prompt has them replaced.
var secretQuery = map[string]bool{"password": true, "passwd": true, "pwd": true, "pass": true, "token": true,
	"access_token": true, "id_token": true, "refresh_token": true, "secret": true, "client_secret": true,
	"api_key": true, "apikey": true, "key": true, "auth": true, "sig": true, "signature": true, "session": true}

// redactedValue replaces a credential in a shown URL.
const redactedValue = "xxxxx"

// shownURL is a URL as a goal or a prompt may show it: a password in its
// user info and the values of credential query parameters (token, key,
// password, …) replaced, so that a demonstration that opened
// https://bob:hunter2@host/ or ?token=… does not send them to a model.
// Anything that is not an absolute URL is returned as it is.
func shownURL(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return s
	}
	changed := false
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), redactedValue)
		changed = true
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k, vs := range q {
			if secretQuery[strings.ToLower(k)] {
				for i := range vs {
					vs[i] = redactedValue
				}
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	if !changed {
		return s
	}
	return u.String()
}
