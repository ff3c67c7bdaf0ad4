package temporalrun

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeCert writes a self-signed certificate and its key as PEM files.
func writeCert(t *testing.T, dir, name string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, name+".pem"), filepath.Join(dir, name+".key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

// TestTLSConfig: the TLS flags become a tls.Config (client pair, CA pool,
// server name), and a missing or wrong file is a clear error naming it.
func TestTLSConfig(t *testing.T) {
	dir := t.TempDir()
	cert, key := writeCert(t, dir, "client")
	ca, _ := writeCert(t, dir, "ca")
	otherCert, _ := writeCert(t, dir, "other")
	notPEM := filepath.Join(dir, "notpem.txt")
	if err := os.WriteFile(notPEM, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.pem")
	tests := []struct {
		name    string
		conn    Conn
		wantNil bool
		certs   int
		pool    bool
		server  string
		wantErr []string // substrings of the error
	}{
		{name: "no TLS flag: plain gRPC", wantNil: true},
		{name: "server name only: system roots", conn: Conn{TLSServerName: "temporal.example"}, server: "temporal.example"},
		{name: "mTLS pair, CA and name", conn: Conn{TLSCert: cert, TLSKey: key, TLSCA: ca, TLSServerName: "t.example"}, certs: 1, pool: true, server: "t.example"},
		{name: "CA only", conn: Conn{TLSCA: ca}, pool: true},
		{name: "cert without key", conn: Conn{TLSCert: cert}, wantErr: []string{"--tls-cert and --tls-key go together"}},
		{name: "key without cert", conn: Conn{TLSKey: key}, wantErr: []string{"--tls-cert and --tls-key go together"}},
		{name: "missing cert file", conn: Conn{TLSCert: missing, TLSKey: key}, wantErr: []string{"TLS client certificate", missing}},
		{name: "key of another certificate", conn: Conn{TLSCert: otherCert, TLSKey: key}, wantErr: []string{"TLS client certificate", "does not match"}},
		{name: "missing CA file", conn: Conn{TLSCA: missing}, wantErr: []string{"TLS CA", missing}},
		{name: "CA file without PEM", conn: Conn{TLSCA: notPEM}, wantErr: []string{"TLS CA " + notPEM, "no PEM certificate"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := tt.conn.tlsConfig()
			if len(tt.wantErr) > 0 {
				if err == nil {
					t.Fatalf("no error, want one naming %q", tt.wantErr)
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantNil {
				if cfg != nil {
					t.Fatalf("a TLS config %+v without any TLS flag", cfg)
				}
				return
			}
			if cfg == nil {
				t.Fatal("no TLS config")
			}
			if len(cfg.Certificates) != tt.certs || (cfg.RootCAs != nil) != tt.pool || cfg.ServerName != tt.server {
				t.Errorf("config: %d certificates (want %d), CA pool %v (want %v), server name %q (want %q)",
					len(cfg.Certificates), tt.certs, cfg.RootCAs != nil, tt.pool, cfg.ServerName, tt.server)
			}
			if tt.pool {
				// The pool holds the CA file's certificate: it verifies.
				data, _ := os.ReadFile(ca)
				block, _ := pem.Decode(data)
				c, err := x509.ParseCertificate(block.Bytes)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := c.Verify(x509.VerifyOptions{Roots: cfg.RootCAs}); err != nil {
					t.Errorf("the CA pool does not hold the CA: %v", err)
				}
			}
		})
	}
}
