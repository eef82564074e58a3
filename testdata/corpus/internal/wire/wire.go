// Package wire holds the transport helpers the clients share.
package wire

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// GetJSON fetches url with hc and decodes the JSON body into v.
func GetJSON(hc *http.Client, url string, v any) error {
	resp, err := hc.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("wire: GET %s: %s", url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}
