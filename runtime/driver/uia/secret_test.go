package uia

import "testing"

// TestPasswordEditIsSecret normalizes a snapshot of a window with two
// edits, one of them IsPassword: that one alone is a secret element, and
// its value is not read.
func TestPasswordEditIsSecret(t *testing.T) {
	const snap = `{"ControlTypeId": 50032, "Properties": {"30001": {"Value": [0, 0, 400, 300]}}, "Children": [
  {"ControlTypeId": 50004, "Properties": {"30011": {"Value": "user"}, "30001": {"Value": [10, 10, 200, 24]}}},
  {"ControlTypeId": 50004, "Properties": {"30011": {"Value": "pin"}, "30019": {"Value": true}, "30001": {"Value": [10, 40, 200, 24]}}}
]}`
	n, err := ReadSnapshot([]byte(snap))
	if err != nil {
		t.Fatal(err)
	}
	secret := map[string]bool{}
	for _, e := range Normalize(n) {
		if e.Role == "textbox" {
			secret[e.ID] = e.Secret
		}
	}
	if len(secret) != 2 || !secret["pin"] || secret["user"] {
		t.Errorf("textboxes and whether they are secret: %v; want pin alone", secret)
	}
}
