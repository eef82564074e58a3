module funclen

go 1.26.0
