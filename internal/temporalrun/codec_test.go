package temporalrun

import (
	"bytes"
	"strings"
	"testing"

	"go.temporal.io/sdk/converter"
)

func TestCodecSealsAndOpens(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	c, err := NewCodec(key)
	if err != nil {
		t.Fatal(err)
	}
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), c)
	in := Row{Row: 3, Inputs: map[string]string{"pin": "4711-very-secret"}, Source: []byte(`task t "x" {}`)}
	p, err := dc.ToPayload(in)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(p.Data, []byte("4711-very-secret")) || bytes.Contains(p.Data, []byte("task t")) {
		t.Fatal("the sealed payload holds the plain text")
	}
	if string(p.Metadata[metaEncoding]) != encodingName {
		t.Fatalf("encoding %q", p.Metadata[metaEncoding])
	}
	var out Row
	if err := dc.FromPayload(p, &out); err != nil {
		t.Fatal(err)
	}
	if out.Inputs["pin"] != "4711-very-secret" || out.Row != 3 {
		t.Fatalf("round trip gave %+v", out)
	}

	other, _ := NewCodec(bytes.Repeat([]byte{8}, 32))
	odc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), other)
	if err := odc.FromPayload(p, &out); err == nil || !strings.Contains(err.Error(), "same key") {
		t.Fatalf("a payload sealed with another key: err %v, want one naming the keys", err)
	}
}

func TestLoadKey(t *testing.T) {
	hexKey := strings.Repeat("ab", 32)
	tests := []struct {
		env, wantErr string
		ok           bool
	}{
		{"", "", false},
		{hexKey, "", true},
		{"QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY=", "", true}, // 32 bytes in base64
		{"abcd", "want 32 bytes", false},
	}
	for _, tt := range tests {
		t.Setenv(KeyEnv, tt.env)
		t.Setenv(KeyFileEnv, "")
		key, ok, err := LoadKey("")
		if ok != tt.ok || (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("key %q: ok %v err %v", tt.env, ok, err)
		}
		if ok && len(key) != 32 {
			t.Errorf("key %q: %d bytes", tt.env, len(key))
		}
	}
}
