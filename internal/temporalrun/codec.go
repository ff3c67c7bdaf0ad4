package temporalrun

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"
)

// The payload codec: every payload the submitter and the workers hand to
// Temporal (the batch's .cog text and rows, heartbeat details, results,
// failure messages) is sealed with AES-256-GCM under a key they share, so
// the server's event history holds no secret input, no page text, no
// workflow text — only ciphertext. The server never needs the key.

// Metadata of a sealed payload.
const (
	metaEncoding = "encoding"
	encodingName = "binary/cogflow-aes256gcm"
	metaKeyID    = "cogflow-key-id" // which key sealed it, so a wrong key is named, not a garbled payload
)

// KeyEnv and KeyFileEnv name the environment variables that give the key
// when no --key-file flag does: 32 bytes, written in hex (64 digits) or
// base64.
const (
	KeyEnv     = "COGFLOW_TEMPORAL_KEY"
	KeyFileEnv = "COGFLOW_TEMPORAL_KEY_FILE"
)

// Codec seals and opens payloads (converter.PayloadCodec).
type Codec struct {
	aead  cipher.AEAD
	keyID string
}

// NewCodec returns the codec for a 32-byte key.
func NewCodec(key []byte) (*Codec, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("the payload key has %d bytes, want 32 (AES-256)", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(key)
	return &Codec{aead: aead, keyID: hex.EncodeToString(sum[:6])}, nil
}

// LoadKey reads the payload key: from file when given, else from the file
// $COGFLOW_TEMPORAL_KEY_FILE names, else from $COGFLOW_TEMPORAL_KEY. ok is
// false when none is set.
func LoadKey(file string) (key []byte, ok bool, err error) {
	text, where := "", ""
	switch {
	case file != "" || os.Getenv(KeyFileEnv) != "":
		if file == "" {
			file = os.Getenv(KeyFileEnv)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, false, fmt.Errorf("payload key: %w", err)
		}
		text, where = string(b), file
	case os.Getenv(KeyEnv) != "":
		text, where = os.Getenv(KeyEnv), "$"+KeyEnv
	default:
		return nil, false, nil
	}
	text = strings.TrimSpace(text)
	if b, err := hex.DecodeString(text); err == nil && len(b) == 32 {
		return b, true, nil
	}
	if b, err := base64.StdEncoding.DecodeString(text); err == nil && len(b) == 32 {
		return b, true, nil
	}
	return nil, false, fmt.Errorf("payload key in %s: want 32 bytes in hex (64 digits) or base64", where)
}

// Encode seals each payload whole (its metadata and data).
func (c *Codec) Encode(in []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(in))
	for i, p := range in {
		plain, err := proto.Marshal(p)
		if err != nil {
			return nil, err
		}
		nonce := make([]byte, c.aead.NonceSize())
		if _, err := rand.Read(nonce); err != nil {
			return nil, err
		}
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{metaEncoding: []byte(encodingName), metaKeyID: []byte(c.keyID)},
			Data:     c.aead.Seal(nonce, nonce, plain, nil),
		}
	}
	return out, nil
}

// Decode opens sealed payloads and passes others through (the server's
// own payloads, e.g. a cancellation's details).
func (c *Codec) Decode(in []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(in))
	for i, p := range in {
		if string(p.GetMetadata()[metaEncoding]) != encodingName {
			out[i] = p
			continue
		}
		if id := string(p.GetMetadata()[metaKeyID]); id != c.keyID {
			return nil, fmt.Errorf("a payload was sealed with key %s, this process has key %s: give the submitter and the workers the same key", id, c.keyID)
		}
		n := c.aead.NonceSize()
		if len(p.Data) < n {
			return nil, errors.New("a sealed payload is too short")
		}
		plain, err := c.aead.Open(nil, p.Data[:n], p.Data[n:], nil)
		if err != nil {
			return nil, fmt.Errorf("a sealed payload does not open with key %s: %w", c.keyID, err)
		}
		var q commonpb.Payload
		if err := proto.Unmarshal(plain, &q); err != nil {
			return nil, err
		}
		out[i] = &q
	}
	return out, nil
}
