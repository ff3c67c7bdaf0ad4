package browser

import (
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestObserveMarksSecretFields checks Element.Secret on the fields a
// secret goes into (a password field, one the page marks as taking a
// password, one named like a password, one a "show password" button made
// plain text after it was seen) and not on the others.
func TestObserveMarksSecretFields(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/secret", `<title>Secret fields</title>
<input id=pw type=password aria-label="Password">
<input id=ac autocomplete="current-password" aria-label="Current">
<input id=named name="user_pwd" aria-label="Named">
<input id=shown type=password aria-label="Shown">
<input id=user aria-label="User">
<input id=mail type=email aria-label="Mail">
<textarea id=notes aria-label="Notes"></textarea>
<input id=passport aria-label="Passport">`))
	want := map[string]bool{"pw": true, "ac": true, "named": true, "shown": true, "user": false, "mail": false, "notes": false, "passport": false}
	check := func(tree *driver.Tree) {
		t.Helper()
		for id, secret := range want {
			if e := one(t, tree, id, byID(id)); e.Secret != secret {
				t.Errorf("#%s: secret %v, want %v", id, e.Secret, secret)
			}
		}
	}
	check(observe(t, d))
	// "Show password": the field turns plain text and stays a secret one.
	eval(t, d, `(document.getElementById('shown').type = 'text')`)
	check(observe(t, d))
}
