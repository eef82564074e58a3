module example.com/retryfixture

go 1.26.0

require github.com/retrylint/retrylint/budget v0.0.0

replace github.com/retrylint/retrylint/budget => ../../budget
