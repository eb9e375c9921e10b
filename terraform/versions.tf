terraform {
  # 1.11+: ephemeral resources and write-only arguments keep the database password out of the state.
  required_version = ">= 1.11.0"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.100"
    }
  }

  # Remote state: an encrypted, versioned S3 bucket with lockfile-based locking. Give the details at
  # init time (docs/operations.md):
  #   terraform init -backend-config="bucket=..." -backend-config="key=fueldesk/prod.tfstate" \
  #                  -backend-config="region=..." -backend-config="use_lockfile=true" -backend-config="encrypt=true"
  backend "s3" {}
}

provider "aws" {
  region = var.region

  default_tags {
    tags = merge(
      {
        Project     = var.project
        Environment = var.environment
        ManagedBy   = "terraform"
      },
      var.tags,
    )
  }
}
