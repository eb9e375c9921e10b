data "aws_caller_identity" "current" {}
data "aws_partition" "current" {}
data "aws_region" "current" {}

locals {
  name       = "${var.project}-${var.environment}"
  account_id = data.aws_caller_identity.current.account_id
  partition  = data.aws_partition.current.partition
  region     = data.aws_region.current.name
  azs        = var.availability_zones

  # 10.40.0.0/16 -> public 10.40.0.0/20, 10.40.16.0/20; private 10.40.128.0/20, 10.40.144.0/20
  public_subnets  = [for i in range(2) : cidrsubnet(var.vpc_cidr, 4, i)]
  private_subnets = [for i in range(2) : cidrsubnet(var.vpc_cidr, 4, i + 8)]

  image      = var.image_uri != "" ? var.image_uri : "${aws_ecr_repository.app.repository_url}:${var.image_tag}"
  app_port   = 8000
  host_names = concat([var.domain_name], var.extra_host_names)
}
