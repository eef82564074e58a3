module github.com/retrylint/retrylint/budget/tools

go 1.22

require github.com/retrylint/retrylint/budget v0.0.0

replace github.com/retrylint/retrylint/budget => ../
