# Reference values for sklearn_bench/stats/_generalization.py: intervals for one
# learner's generalization error (and for A - B), each hand-coded in base R from
# its published formula, on loss tables made here from lm fits on simulated data.
#
# Run from the repository root:
#   Rscript tests/reference/generalization_error/intervals.R
# Writes tests/reference/generalization_error/intervals.json.  R 4.2.2, base R only.
#
# Every table has one row per validated observation: split (0-based, in the
# splitter's order), row (0-based observation index), loss (learner A), loss_b
# (learner B, where a case has a difference), plus the design's role columns.
# Learner A is least squares on three features (lm.fit), learner B predicts the
# training mean; the loss is squared error (0-1 for nothing here: the formulas
# do not care where the losses come from).
source("tests/stats/reference/_json.R")
set.seed(40)

sim <- function(n) {
  X <- matrix(rnorm(n * 3), n)
  list(X = X, y = drop(X %*% c(1, -0.5, 0.25) + rnorm(n)))
}
loss_a <- function(d, train, test) {
  fit <- lm.fit(cbind(1, d$X[train, , drop = FALSE]), d$y[train])
  drop((d$y[test] - cbind(1, d$X[test, , drop = FALSE]) %*% fit$coefficients)^2)
}
loss_b <- function(d, train, test) (d$y[test] - mean(d$y[train]))^2
# One table from a list of splits, each list(train, test, roles = named list).
table_of <- function(d, splits) {
  parts <- lapply(seq_along(splits), function(s) {
    sp <- splits[[s]]
    do.call(data.frame, c(list(split = s - 1, row = sp$test - 1,
                               loss = loss_a(d, sp$train, sp$test),
                               loss_b = loss_b(d, sp$train, sp$test)), sp$roles,
                 list(check.names = FALSE)))
  })
  do.call(rbind, parts)
}
columns <- function(tab) lapply(as.list(tab), I)
zq <- function(level) qnorm(1 - (1 - level) / 2)
interval <- function(est, se, q) I(c(est - q * se, est + q * se))
cases <- list()

# --- holdout (Wald): mean +- z sd / sqrt(n_test) --------------------------------
d <- sim(50); test <- sort(sample(50, 19))
tab <- table_of(d, list(list(train = setdiff(1:50, test), test = test,
                             roles = list())))
se <- sd(tab$loss) / sqrt(nrow(tab))
cases$holdout <- list(table = columns(tab), estimate = mean(tab$loss),
  standard_error = se, ci95 = interval(mean(tab$loss), se, zq(0.95)),
  ci90 = interval(mean(tab$loss), se, zq(0.90)))

# --- naive CV (Bayle et al. 2020), 5 uneven folds of n = 53 -------------------
d <- sim(53); fold <- sample(rep(1:5, length.out = 53))
tab <- table_of(d, lapply(1:5, function(k) list(
  train = which(fold != k), test = which(fold == k), roles = list())))
n <- nrow(tab); est <- mean(tab$loss)
v_all <- mean((tab$loss - est)^2)                       # divide by n
v_within <- mean(tapply(tab$loss, tab$split, var))      # mean per-fold variance
cases$naive_cv <- list(table = columns(tab), estimate = est,
  se_all_pairs = sqrt(v_all / n), se_within_fold = sqrt(v_within / n),
  ci95_all_pairs = interval(est, sqrt(v_all / n), zq(0.95)),
  ci95_within_fold = interval(est, sqrt(v_within / n), zq(0.95)))

# --- corrected resampled t (Nadeau & Bengio 2003, eq. 13), J = 15, n = 80 -------
d <- sim(80); n1 <- 72; n2 <- 8; J <- 15
splits <- lapply(1:J, function(j) {
  train <- sort(sample(80, n1))
  list(train = train, test = setdiff(1:80, train), roles = list(n_train = n1))
})
tab <- table_of(d, splits)
corrected_t <- function(loss) {
  mu <- tapply(loss, tab$split, mean)
  se <- sd(mu) * sqrt(1 / J + n2 / n1)
  list(estimate = mean(mu), standard_error = se, df = J - 1,
       ci95 = interval(mean(mu), se, qt(0.975, J - 1)))
}
cases$corrected_t <- c(list(table = columns(tab)), corrected_t(tab$loss),
                       list(difference = corrected_t(tab$loss - tab$loss_b)))

# --- conservative Z (Nadeau & Bengio 2003, eq. 21), J = 4, M = 3, n = 40 --------
# mlr3inferr's ResamplingPairedSubsampling layout: J whole-data subsamples with
# n1 = 36, n2 = 4; then M pairs of disjoint halves of 20 rows, J subsamples in
# each half with the same n2 = 4 and 16 training rows.
d <- sim(40); J <- 4; M <- 3; n2 <- 4
sub <- function(rows, m, h) lapply(1:J, function(j) {
  test <- sort(sample(rows, n2))
  list(train = setdiff(rows, test), test = test,
       roles = list(pair = m, half = h, subsample = j - 1))
})
splits <- sub(1:40, -1, -1)
for (m in 1:M) {
  o <- sample(40)
  splits <- c(splits, sub(o[1:20], m - 1, 0), sub(o[21:40], m - 1, 1))
}
tab <- table_of(d, splits)
conservative_z <- function(loss) {
  mu <- tapply(loss, tab$split, mean)
  roles <- tab[!duplicated(tab$split), c("pair", "half")]
  est <- mean(mu[roles$pair == -1])
  h0 <- tapply(mu[roles$half == 0], roles$pair[roles$half == 0], mean)
  h1 <- tapply(mu[roles$half == 1], roles$pair[roles$half == 1], mean)
  sigma <- sqrt(sum((h0 - h1)^2) / (2 * M))
  list(estimate = est, standard_error = sigma,
       ci95 = interval(est, sigma, zq(0.95)))
}
cases$conservative_z <- c(list(table = columns(tab)), conservative_z(tab$loss),
                          list(difference = conservative_z(tab$loss - tab$loss_b)))

# --- nested CV (Bates, Hastie & Tibshirani 2024, Algorithm 1) ------------------
# K = 5, 3 repeats, n = 60 (a multiple of K, so that nestedcv's n_sub scaling and
# mlr3inferr's (K - 1)/K agree). Folds drawn as nestedcv::nested_cv_helper does.
d <- sim(60); K <- 5; R <- 3; n <- 60
folds <- list(); splits <- list()
for (r in 1:R) {
  fold <- sample(1:n %% K + 1)
  folds[[r]] <- I(fold)
  for (o in 1:K) splits[[length(splits) + 1]] <- list(
    train = which(fold != o), test = which(fold == o),
    roles = list(`repeat` = r - 1, outer = o - 1, inner = -1))
  for (o in 1:K) {
    others <- setdiff(1:K, o)
    for (i in seq_along(others)) splits[[length(splits) + 1]] <- list(
      train = which(fold != o & fold != others[i]), test = which(fold == others[i]),
      roles = list(`repeat` = r - 1, outer = o - 1, inner = i - 1))
  }
}
tab <- table_of(d, splits)
nested_cv <- function(loss) {
  out <- tab$inner == -1
  key <- paste(tab$`repeat`, tab$outer)
  a <- (tapply(loss[!out], key[!out], mean) - tapply(loss[out], key[out], mean))^2
  b <- tapply(loss[out], key[out], var) / tapply(loss[out], key[out], length)
  mse <- (K - 1) / K * mean(a - b)
  err_ncv <- mean(loss[!out]); err_cv <- mean(loss[out])
  se_low <- sd(loss[!out]) / sqrt(n)
  se <- max(se_low, min(sqrt(max(0, mse)), sqrt(K) * se_low))
  bias <- (1 + (K - 2) / K) * (err_ncv - err_cv)
  list(estimate = err_ncv - bias, standard_error = se, err_ncv = err_ncv,
       err_cv = err_cv, bias = bias, mse = mse,
       ci90 = interval(err_ncv - bias, se, zq(0.90)))
}
cases$nested_cv <- c(list(table = columns(tab), folds = folds, X = d$X, y = I(d$y)),
                     nested_cv(tab$loss),
                     list(learner_b = nested_cv(tab$loss_b),  # MSE inside its bounds
                          difference = nested_cv(tab$loss - tab$loss_b)))

# --- 5x2cv for one learner (Dietterich 1998's t argument): p11 +- t_5 s ---------
d <- sim(50); splits <- list()
for (r in 1:5) {
  fold <- sample(rep(1:2, 25))
  for (f in 1:2) splits[[length(splits) + 1]] <- list(
    train = which(fold != f), test = which(fold == f), roles = list())
}
tab <- table_of(d, splits)
p <- matrix(tapply(tab$loss, tab$split, mean), 5, 2, byrow = TRUE)
s2 <- rowSums((p - rowMeans(p))^2)
se <- sqrt(sum(s2) / 5)
cases$five_by_two <- list(table = columns(tab), estimate = p[1, 1],
  standard_error = se, df = 5, ci95 = interval(p[1, 1], se, qt(0.975, 5)))

# --- out-of-bootstrap (Efron & Tibshirani 1997, eqs. 35-40) and .632+ ----------
d <- sim(40); n <- 40; B <- 30
splits <- list(); N <- matrix(0, B, n)
for (b in 1:B) {
  repeat { draw <- sample(n, n, replace = TRUE); if (length(unique(draw)) < n) break }
  N[b, ] <- tabulate(draw, n)
  splits[[b]] <- list(train = draw, test = which(N[b, ] == 0), roles = list())
}
tab <- table_of(d, splits)
L <- matrix(NA, B, n); L[cbind(tab$split + 1, tab$row + 1)] <- tab$loss
I_ <- !is.na(L)
stopifnot(all(colSums(I_) > 0))
E <- colSums(ifelse(I_, L, 0)) / colSums(I_)             # E_i
err1 <- mean(E)                                           # (37)
q <- rowSums(ifelse(I_, L, 0)) / n                        # (36)
en <- (1 - 1 / n)^(-n)
D <- (2 + 1 / (n - 1)) * (E - err1) / n +
  en * colSums((N - matrix(colMeans(N), B, n, byrow = TRUE)) * q) / B   # (40)
se_del <- sqrt(sum(D^2))                                  # (35)
# .632+ with the apparent error and gamma of least squares fitted on all n rows
full <- lm.fit(cbind(1, d$X), d$y)
yhat <- drop(cbind(1, d$X) %*% full$coefficients)
apparent <- mean((d$y - yhat)^2)
gamma <- mean(outer(d$y, yhat, function(a, b) (a - b)^2))  # eq. (27), double sum
err1p <- min(err1, gamma)                                  # (31)
Rp <- if (err1p > apparent && gamma > apparent) (err1p - apparent) / (gamma - apparent) else 0
est632 <- 0.368 * apparent + 0.632 * err1
est632p <- est632 + (err1p - apparent) * 0.368 * 0.632 * Rp / (1 - 0.368 * Rp)  # (32)
se632p <- se_del * est632p / err1      # Schulz-Kumpel et al. (2024), infer_632plus
cases$oob <- list(table = columns(tab), train_counts = N, estimate = err1,
  standard_error = se_del, ci95 = interval(err1, se_del, zq(0.95)),
  apparent = apparent, no_information = gamma, estimate_632plus = est632p,
  standard_error_632plus = se632p)

# --- cvAUC influence curve (LeDell, Petersen & van der Laan 2015; ci.cvAUC) -----
# Scores rounded to one decimal, so that ties occur. Within a fold, the AUC counts
# ties as 1/2; the influence curve uses the strict shares (negatives scored below
# a positive, positives scored above a negative), as ci.cvAUC's sorted cumsums do.
n <- 150; y <- rbinom(n, 1, 0.4)
sa <- round(0.9 * y + rnorm(n), 1); sb <- round(0.4 * y + rnorm(n), 1)
folds <- sample(rep(1:5, 30))
w1 <- n / sum(y == 1); w0 <- n / sum(y == 0)
fold_parts <- function(s, k) {
  yy <- y[folds == k]; ss <- s[folds == k]
  pos <- ss[yy == 1]; neg <- ss[yy == 0]
  auc <- mean(outer(pos, neg, function(a, b) (a > b) + 0.5 * (a == b)))
  r <- rank(ss)                                            # a second route
  stopifnot(abs(auc - (sum(r[yy == 1]) - length(pos) * (length(pos) + 1) / 2) /
                      (length(pos) * length(neg))) < 1e-12)
  ic <- ifelse(yy == 1,
               w1 * (sapply(ss, function(v) mean(neg < v)) - auc),
               w0 * (sapply(ss, function(v) mean(pos > v)) - auc))
  list(auc = auc, ic = ic)
}
cv_auc <- function(paired) {
  parts <- lapply(1:5, function(k) {
    a <- fold_parts(sa, k)
    if (!paired) return(a)
    b <- fold_parts(sb, k)
    list(auc = a$auc - b$auc, ic = a$ic - b$ic)
  })
  est <- mean(sapply(parts, `[[`, "auc"))
  se <- sqrt(mean(sapply(parts, function(p) mean(p$ic^2))) / n)
  ci <- c(est - zq(0.95) * se, est + zq(0.95) * se)
  lim <- if (paired) c(-1, 1) else c(0, 1)
  list(estimate = est, standard_error = se, ci95 = I(pmin(pmax(ci, lim[1]), lim[2])))
}
cases$cv_auc <- c(list(y = I(y), score = I(sa), score_b = I(sb), folds = I(folds - 1)),
                  cv_auc(FALSE), list(difference = cv_auc(TRUE)))

writeLines(to_json(cases), "tests/reference/generalization_error/intervals.json")
