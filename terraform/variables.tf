variable "project" {
  description = "Short name used in every resource name."
  type        = string
  default     = "fueldesk"
}

variable "environment" {
  description = "Deployment name (prod, staging, ...)."
  type        = string
  default     = "prod"
}

variable "region" {
  description = "AWS region."
  type        = string
  default     = "us-east-1"
}

variable "tags" {
  description = "Extra tags for every resource."
  type        = map(string)
  default     = {}
}

# ------------------------------------------------------------------ network

variable "availability_zones" {
  description = "The two Availability Zones (of var.region) the stack spreads over; pinned, so a new AZ never moves subnets."
  type        = list(string)
  default     = ["us-east-1a", "us-east-1b"]

  validation {
    condition     = length(var.availability_zones) == 2 && alltrue([for az in var.availability_zones : startswith(az, var.region)])
    error_message = "Give exactly two Availability Zones of var.region."
  }
}

variable "vpc_cidr" {
  description = "CIDR of the VPC; split into 2 public and 2 private subnets over two AZs."
  type        = string
  default     = "10.40.0.0/16"
}

variable "single_nat_gateway" {
  description = "One NAT gateway for both AZs (cheaper) instead of one per AZ (survives an AZ loss)."
  type        = bool
  default     = false
}

variable "flow_log_retention_days" {
  description = "Retention of the VPC flow logs."
  type        = number
  default     = 365
}

# ------------------------------------------------------------------ domain and TLS

variable "domain_name" {
  description = "Public host name of the application (the ALB answers only for it and extra_host_names)."
  type        = string
}

variable "extra_host_names" {
  description = "Other host names routed to the app (tenants' own domains, wildcards like *.example.com)."
  type        = list(string)
  default     = []
}

variable "acm_certificate_arn" {
  description = "ARN of the ACM certificate (same region) used by the HTTPS listener."
  type        = string
}

variable "alb_deletion_protection" {
  description = "Protect the load balancer from deletion."
  type        = bool
  default     = true
}

# ------------------------------------------------------------------ database

variable "db_engine_version" {
  description = "RDS PostgreSQL major version."
  type        = string
  default     = "16"
}

variable "db_instance_class" {
  description = "RDS instance class."
  type        = string
  default     = "db.t4g.medium"
}

variable "db_allocated_storage" {
  description = "Initial storage (GiB)."
  type        = number
  default     = 50
}

variable "db_max_allocated_storage" {
  description = "Storage autoscaling ceiling (GiB)."
  type        = number
  default     = 500
}

variable "db_multi_az" {
  description = "Run a synchronous standby in the second AZ."
  type        = bool
  default     = true
}

variable "db_backup_retention_days" {
  description = "Automated backup retention (days)."
  type        = number
  default     = 14
}

variable "db_deletion_protection" {
  description = "Protect the database from deletion (and take a final snapshot when it is deleted)."
  type        = bool
  default     = true
}

variable "db_password_version" {
  description = "Bump to generate and set a new database password (write-only: never stored in the state)."
  type        = number
  default     = 1
}

# ------------------------------------------------------------------ redis

variable "redis_node_type" {
  description = "ElastiCache node type."
  type        = string
  default     = "cache.t4g.small"
}

variable "redis_engine_version" {
  description = "ElastiCache Redis OSS engine version."
  type        = string
  default     = "7.1"
}

variable "redis_multi_az" {
  description = "A replica in the second AZ with automatic failover."
  type        = bool
  default     = true
}

# ------------------------------------------------------------------ files

variable "files_noncurrent_version_days" {
  description = "Days a replaced or deleted file version is kept before it expires."
  type        = number
  default     = 90
}

variable "files_infrequent_access_days" {
  description = "Days after which current file versions move to STANDARD_IA."
  type        = number
  default     = 90
}

variable "log_bucket_retention_days" {
  description = "Retention of ALB and S3 access logs."
  type        = number
  default     = 365
}

# ------------------------------------------------------------------ application

variable "image_tag" {
  description = "Tag of the application image in the ECR repository this stack creates (tags are immutable: use the git SHA)."
  type        = string
}

variable "image_uri" {
  description = "Full image URI; overrides the ECR repository and image_tag when set."
  type        = string
  default     = ""
}

variable "web_cpu" {
  description = "Fargate CPU units of a web task."
  type        = number
  default     = 1024
}

variable "web_memory" {
  description = "Fargate memory (MiB) of a web task."
  type        = number
  default     = 2048
}

variable "web_desired_count" {
  description = "Web tasks at rest (autoscaling goes up to web_max_count)."
  type        = number
  default     = 2
}

variable "web_max_count" {
  description = "Ceiling of web autoscaling."
  type        = number
  default     = 6
}

variable "web_concurrency" {
  description = "Gunicorn sync workers per web task."
  type        = number
  default     = 3
}

variable "worker_cpu" {
  description = "Fargate CPU units of a worker task."
  type        = number
  default     = 1024
}

variable "worker_memory" {
  description = "Fargate memory (MiB) of a worker task."
  type        = number
  default     = 2048
}

variable "worker_desired_count" {
  description = "Dramatiq worker tasks."
  type        = number
  default     = 1
}

variable "worker_processes" {
  description = "Dramatiq processes per worker task."
  type        = number
  default     = 2
}

variable "worker_threads" {
  description = "Dramatiq threads per process."
  type        = number
  default     = 4
}

variable "log_retention_days" {
  description = "CloudWatch retention of application logs."
  type        = number
  default     = 365
}

variable "sentry_dsn" {
  description = "Sentry DSN (empty: Sentry off)."
  type        = string
  default     = ""
}

variable "email_host" {
  description = "SMTP host (empty: mail goes to the console log). Its password goes into the smtp-password secret by hand."
  type        = string
  default     = ""
}

variable "email_port" {
  description = "SMTP port."
  type        = number
  default     = 587
}

variable "email_host_user" {
  description = "SMTP user name."
  type        = string
  default     = ""
}

variable "default_from_email" {
  description = "From address of outgoing mail."
  type        = string
  default     = "FuelDesk <no-reply@example.com>"
}

variable "file_upload_max_bytes" {
  description = "Largest accepted upload (bytes)."
  type        = number
  default     = 5242880
}

variable "extra_environment" {
  description = "More plain environment variables for web, worker and manage tasks."
  type        = map(string)
  default     = {}
}

variable "jwt_signing_key_version" {
  description = "Bump to generate a new access-token signing key (see docs/operations.md for a rotation without signing everyone out)."
  type        = number
  default     = 1
}

variable "secret_key_version" {
  description = "Bump to generate a new Django SECRET_KEY."
  type        = number
  default     = 1
}

variable "enable_execute_command" {
  description = "Allow `aws ecs execute-command` into tasks (operator shells; sessions are encrypted and logged)."
  type        = bool
  default     = true
}

variable "waf_rate_limit" {
  description = "Requests per 5 minutes from one IP before the WAF blocks it."
  type        = number
  default     = 3000
}

variable "worker_max_count" {
  description = "Ceiling of worker autoscaling (CPU and queue backlog)."
  type        = number
  default     = 6
}

variable "worker_backlog_per_task" {
  description = "Waiting messages per worker task the backlog policy aims at (more: scale out)."
  type        = number
  default     = 200
}

variable "backup_retention_days" {
  description = "Days a tenant backup is kept in the backups bucket before it expires."
  type        = number
  default     = 35
}

variable "pgbouncer_image" {
  description = "PgBouncer image (configured by environment: DB_HOST, POOL_MODE, ...; edoburu/pgbouncer's conventions)."
  type        = string
  default     = "edoburu/pgbouncer:v1.24.1-p1"
}

variable "pgbouncer_count" {
  description = "PgBouncer tasks (each holds up to pgbouncer_default_pool_size server connections)."
  type        = number
  default     = 2
}

variable "pgbouncer_pool_mode" {
  description = "session (search_path per client connection: safe as is) or transaction (docs/operations.md)."
  type        = string
  default     = "session"
  validation {
    condition     = contains(["session", "transaction"], var.pgbouncer_pool_mode)
    error_message = "pgbouncer_pool_mode is session or transaction."
  }
}

variable "pgbouncer_default_pool_size" {
  description = "Server connections per PgBouncer task to the database."
  type        = number
  default     = 40
}

variable "pgbouncer_max_client_conn" {
  description = "Client connections one PgBouncer task accepts (web workers × threads + worker threads, with room)."
  type        = number
  default     = 1000
}
