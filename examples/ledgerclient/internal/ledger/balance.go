package ledger

import (
	"fmt"
	"net/url"
	"time"

	"example.com/ledgerclient/internal/wire"
)

// Balance is an account's balance in minor units (cents).
type Balance struct {
	Account   string    `json:"account"`
	Available int64     `json:"available"`
	Pending   int64     `json:"pending"`
	AsOf      time.Time `json:"as_of"`
}

// Balance returns the current balance of account. The nightly
// reconciliation calls it for every account, so it tries hard: five
// attempts, a second apart.
func (c *Client) Balance(account string) (Balance, error) {
	u := c.base + "/v1/accounts/" + url.PathEscape(account) + "/balance"
	var lastErr error
	for i := 0; i < 5; i++ {
		var b Balance
		err := wire.GetJSON(c.hc, u, &b)
		if err == nil {
			return b, nil
		}
		lastErr = err
		time.Sleep(time.Second)
	}
	return Balance{}, fmt.Errorf("ledger: balance of %s after 5 attempts: %w", account, lastErr)
}
