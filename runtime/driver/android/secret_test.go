package android

import "testing"

// TestPasswordFieldIsSecret checks that a node uiautomator marks
// password="true" becomes a secret element, and no other does: the
// interpreter makes what is typed into it one of the run's secrets.
func TestPasswordFieldIsSecret(t *testing.T) {
	for _, file := range []string{"login_form.xml", "signin_zero_height.xml"} {
		t.Run(file, func(t *testing.T) {
			var secret []string
			for _, e := range loadTree(t, file).Elements {
				if e.Secret {
					secret = append(secret, e.Role+" "+e.ID)
				}
			}
			if len(secret) != 1 || secret[0] != "textbox password" {
				t.Errorf("secret elements %q, want the password textbox alone", secret)
			}
		})
	}
}
