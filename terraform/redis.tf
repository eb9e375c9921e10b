resource "aws_elasticache_subnet_group" "main" {
  name        = local.name
  description = "Private subnets of ${local.name}"
  subnet_ids  = aws_subnet.private[*].id
}

# Redis is both the Dramatiq broker (keys without TTL) and the cache (keys with TTL): evict only keys
# that have a TTL, so queued messages are never dropped under memory pressure.
resource "aws_elasticache_parameter_group" "main" {
  name        = "${local.name}-redis7"
  family      = "redis7"
  description = "${local.name}: broker + cache"

  parameter {
    name  = "maxmemory-policy"
    value = "volatile-lru"
  }
}

resource "aws_cloudwatch_log_group" "redis" {
  name              = "/${var.project}/${var.environment}/redis-slow-log"
  retention_in_days = var.log_retention_days
  kms_key_id        = aws_kms_key.main.arn
}

resource "aws_elasticache_replication_group" "main" {
  replication_group_id = local.name
  description          = "${local.name}: Dramatiq broker and cache"
  engine               = "redis"
  engine_version       = var.redis_engine_version
  node_type            = var.redis_node_type
  port                 = 6379
  parameter_group_name = aws_elasticache_parameter_group.main.name

  num_cache_clusters         = var.redis_multi_az ? 2 : 1
  automatic_failover_enabled = var.redis_multi_az
  multi_az_enabled           = var.redis_multi_az

  subnet_group_name  = aws_elasticache_subnet_group.main.name
  security_group_ids = [aws_security_group.redis.id]

  at_rest_encryption_enabled = true
  kms_key_id                 = aws_kms_key.main.arn
  transit_encryption_enabled = true
  auth_token                 = data.aws_secretsmanager_random_password.redis.random_password

  snapshot_retention_limit   = 7
  snapshot_window            = "02:00-03:00"
  maintenance_window         = "sun:05:30-sun:06:30"
  auto_minor_version_upgrade = true
  apply_immediately          = false

  log_delivery_configuration {
    destination      = aws_cloudwatch_log_group.redis.name
    destination_type = "cloudwatch-logs"
    log_format       = "json"
    log_type         = "slow-log"
  }

  lifecycle {
    # The data source draws a new value at every plan: keep the first token (see secrets.tf).
    ignore_changes = [auth_token]
  }
}
